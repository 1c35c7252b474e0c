import Cancel from "@mui/icons-material/Cancel";
import CheckCircle from "@mui/icons-material/CheckCircle";
import RemoveCircleOutlined from "@mui/icons-material/RemoveCircleOutlined";
import WarningAmber from "@mui/icons-material/WarningAmber";
import Box from "@mui/material/Box";
import CircularProgress from "@mui/material/CircularProgress";
import type { IntegrationResult } from "@vigil/contract";
import type { CheckRun } from "../api/run-integration-check";

/** What a card says about its check: the result's status, or that it is still running. */
export type CheckOutcome = IntegrationResult["status"] | "running";

export const checkOutcomeLabels: Record<CheckOutcome, string> = {
  running: "Running…",
  pass: "Pass",
  warning: "Warning",
  fail: "Fail",
  skipped: "Skipped",
};

/** A check that could not be run at all (HTTP error, no network) counts as failed. */
export function outcomeOf(run: CheckRun | undefined): CheckOutcome {
  if (!run || run.state === "running") return "running";
  return run.state === "error" ? "fail" : run.result.status;
}

/** Pass, Warning, Fail, Skipped or Running… as an icon and a word, never colour alone. */
export function IntegrationCheckStatus({ outcome }: { outcome: CheckOutcome }) {
  const icon =
    outcome === "running" ? (
      <CircularProgress size={18} aria-hidden="true" />
    ) : outcome === "pass" ? (
      <CheckCircle color="success" aria-hidden="true" />
    ) : outcome === "warning" ? (
      <WarningAmber color="warning" aria-hidden="true" />
    ) : outcome === "fail" ? (
      <Cancel color="error" aria-hidden="true" />
    ) : (
      <RemoveCircleOutlined color="disabled" aria-hidden="true" />
    );
  return (
    <Box
      component="span"
      sx={{
        display: "inline-flex",
        alignItems: "center",
        gap: 0.75,
        fontWeight: 600,
        whiteSpace: "nowrap",
        color:
          outcome === "fail"
            ? "error.main"
            : outcome === "warning"
              ? "warning.dark"
              : outcome === "pass"
                ? "success.dark"
                : "text.secondary",
      }}
    >
      {icon}
      {checkOutcomeLabels[outcome]}
    </Box>
  );
}

/** "85 ms", "2.4 s". */
export function formatCheckDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
