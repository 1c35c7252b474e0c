import Chip, { type ChipProps } from "@mui/material/Chip";
import { type BugSeverity, type BugStatus, bugSeverityLabels, bugStatusLabels } from "@vigil/contract";
import { severityWord } from "../bug-report-labels";

const severityColours: Record<BugSeverity, ChipProps["color"]> = {
  low: "default",
  medium: "info",
  high: "warning",
  critical: "error",
};

const statusColours: Record<BugStatus, ChipProps["color"]> = {
  open: "primary",
  triaged: "secondary",
  "in-progress": "info",
  fixed: "success",
  closed: "default",
  "wont-fix": "default",
};

/** The severity in words ("High"); the colour only repeats it. The full wording is its tooltip. */
export function BugSeverityChip({ severity }: { severity: BugSeverity }) {
  return (
    <Chip
      size="small"
      label={severityWord(severity)}
      color={severityColours[severity]}
      variant={severity === "critical" || severity === "high" ? "filled" : "outlined"}
      title={bugSeverityLabels[severity]}
    />
  );
}

export function BugStatusChip({ status }: { status: BugStatus }) {
  return <Chip size="small" label={bugStatusLabels[status]} color={statusColours[status]} variant="outlined" />;
}
