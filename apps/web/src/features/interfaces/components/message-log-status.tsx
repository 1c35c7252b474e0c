import Chip from "@mui/material/Chip";
import type { Hl7MessageStatus } from "@vigil/contract";
import { statusLabels } from "../message-log-labels";

/** A message's status as a chip: the words carry it, the colour is a second cue; the ACK code beside when known. */
export function MessageLogStatus({ status, ackCode }: { status: Hl7MessageStatus; ackCode?: string | null }) {
  const { label, color } = statusLabels[status];
  const code = ackCode && !label.includes(`(${ackCode})`) ? ` · ${ackCode}` : "";
  return <Chip size="small" variant="outlined" color={color} label={`${label}${code}`} />;
}
