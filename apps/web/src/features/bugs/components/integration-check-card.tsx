import Replay from "@mui/icons-material/Replay";
import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { IntegrationResult } from "@vigil/contract";
import { useId } from "react";
import type { CheckRun } from "../api/run-integration-check";
import { formatCheckDuration, IntegrationCheckStatus, outcomeOf } from "./integration-check-status";

type Check = { id: string; title: string; purpose: string };

function detailValue(value: IntegrationResult["details"][string]): string {
  if (value === null) return "—";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "number") return value.toLocaleString("en-US");
  return value;
}

function Details({ details }: { details: IntegrationResult["details"] }) {
  const entries = Object.entries(details);
  if (entries.length === 0) return null;
  return (
    <Box
      component="dl"
      sx={{
        display: "grid",
        gridTemplateColumns: "max-content 1fr",
        columnGap: 2,
        rowGap: 0.25,
        m: 0,
        mt: 1,
        fontSize: "0.875rem",
      }}
    >
      {entries.map(([key, value]) => (
        <Box key={key} sx={{ display: "contents" }}>
          <Box component="dt" sx={{ color: "text.secondary" }}>
            {key}
          </Box>
          <Box component="dd" sx={{ m: 0, fontFamily: "monospace", wordBreak: "break-word" }}>
            {detailValue(value)}
          </Box>
        </Box>
      ))}
    </Box>
  );
}

/**
 * One self-check: what it checks, then "Running…" until its answer, then Pass / Fail / Skipped with the
 * summary, the hint (as an alert when it failed), the measured details and how long it took.
 */
export function IntegrationCheckCard({
  check,
  run,
  onRunAgain,
}: {
  check: Check;
  run: CheckRun | undefined;
  onRunAgain: () => void;
}) {
  const titleId = useId();
  const outcome = outcomeOf(run);
  const running = outcome === "running";
  const failed = outcome === "fail";
  const warned = outcome === "warning";

  return (
    <Paper
      component="li"
      variant="outlined"
      aria-labelledby={titleId}
      aria-busy={running || undefined}
      sx={{
        p: 2,
        listStyle: "none",
        borderLeftWidth: 4,
        borderLeftColor: failed ? "error.main" : warned ? "warning.main" : "divider",
      }}
    >
      <Stack direction="row" sx={{ gap: 2, alignItems: "flex-start", flexWrap: "wrap" }}>
        <Box sx={{ flex: "1 1 320px", minWidth: 0 }}>
          <Typography id={titleId} variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            {check.title}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {check.purpose}
          </Typography>
        </Box>
        <Stack direction="row" sx={{ gap: 2, alignItems: "center" }}>
          <IntegrationCheckStatus outcome={outcome} />
          {run?.state === "done" ? (
            <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: "nowrap" }}>
              {formatCheckDuration(run.result.durationMs)}
            </Typography>
          ) : run?.state === "error" ? (
            <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: "nowrap" }}>
              {formatCheckDuration(run.durationMs)}
            </Typography>
          ) : null}
          <Button
            size="small"
            startIcon={<Replay />}
            onClick={onRunAgain}
            disabled={running}
            aria-label={`Run again: ${check.title}`}
          >
            Run again
          </Button>
        </Stack>
      </Stack>

      {run?.state === "done" ? (
        <Box sx={{ mt: 1 }}>
          <Typography>{run.result.summary}</Typography>
          {run.result.hint ? (
            failed || warned ? (
              <Alert severity={failed ? "error" : "warning"} sx={{ mt: 1 }}>
                <AlertTitle>What to do</AlertTitle>
                {run.result.hint}
              </Alert>
            ) : (
              <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                Hint: {run.result.hint}
              </Typography>
            )
          ) : null}
          <Details details={run.result.details} />
        </Box>
      ) : null}
      {run?.state === "error" ? (
        <Alert severity="error" sx={{ mt: 1 }}>
          <AlertTitle>The check could not be run</AlertTitle>
          {run.httpStatus ? `HTTP ${run.httpStatus}: ` : ""}
          {run.message}
        </Alert>
      ) : null}
    </Paper>
  );
}
