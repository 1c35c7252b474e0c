import PriorityHigh from "@mui/icons-material/PriorityHigh";
import Chip from "@mui/material/Chip";
import type { CasePriority, CaseStage } from "@vigil/contract";
import { stageLabel } from "../case-labels";

/** STAT cases carry a red chip wherever they are listed; routine ones show nothing unless asked. */
export function PriorityChip({ priority, showRoutine = false }: { priority: CasePriority; showRoutine?: boolean }) {
  if (priority === "stat")
    return <Chip size="small" color="error" icon={<PriorityHigh aria-hidden="true" />} label="STAT" />;
  return showRoutine ? <Chip size="small" variant="outlined" label="Routine" /> : null;
}

export function StageChip({ stage }: { stage: CaseStage }) {
  return <Chip size="small" color="primary" variant="outlined" label={stageLabel(stage)} />;
}
