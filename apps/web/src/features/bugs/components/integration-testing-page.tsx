import Replay from "@mui/icons-material/Replay";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import LinearProgress from "@mui/material/LinearProgress";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { IntegrationCheckId } from "@vigil/contract";
import { useEffect, useMemo } from "react";
import { QueryError } from "../../../components/feedback/query-error";
import { PageHeading } from "../../../components/layouts/page-heading";
import { countOf } from "../../../lib/count-of";
import { useIntegrationChecks } from "../api/list-integration-checks";
import { type CheckRuns, useIntegrationCheckRuns } from "../api/run-integration-check";
import { IntegrationCheckCard } from "./integration-check-card";
import { outcomeOf } from "./integration-check-status";
import { JobQueueSection } from "./job-queue-section";

/**
 * "5 of 8 done" while checks run; then the verdict ("All checks passed", "2 checks failed", "All checks passed, 1 with
 * a warning"): a warning is never counted as a plain pass.
 */
function progressOf(ids: readonly IntegrationCheckId[], runs: CheckRuns) {
  const outcomes = ids.map((id) => outcomeOf(runs[id]));
  const done = outcomes.filter((outcome) => outcome !== "running").length;
  const failed = outcomes.filter((outcome) => outcome === "fail").length;
  const skipped = outcomes.filter((outcome) => outcome === "skipped").length;
  const warned = outcomes.filter((outcome) => outcome === "warning").length;
  const finished = done === ids.length;
  let message: string;
  if (!finished) message = `${done} of ${ids.length} done`;
  else if (failed > 0) message = `${countOf(failed, "check")} failed`;
  else if (warned > 0) message = `No check failed; ${countOf(warned, "check")} with a warning`;
  else message = "All checks passed";
  if (finished && skipped > 0) message += ` (${skipped} skipped as not applicable here)`;
  return { done, failed, warned, finished, message };
}

/**
 * `/bugs/integration-testing`: the deployment's live self-checks. Every check starts at once, each on its own
 * request, and each card shows its answer as it arrives; one check's error never stops the others.
 */
export function IntegrationTestingPage() {
  const checks = useIntegrationChecks();
  const { runs, run, runAll } = useIntegrationCheckRuns();
  const items = checks.data?.items;
  const ids = useMemo(() => items?.map((check) => check.id), [items]);

  // Opening the page runs every check; the same list (kept by the query cache) does not start them twice.
  useEffect(() => {
    if (ids) runAll(ids);
  }, [ids, runAll]);

  const progress = ids ? progressOf(ids, runs) : null;

  return (
    <>
      <PageHeading>Integration testing</PageHeading>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Live self-checks of this deployment: database, migrations, signing keys, mail, clock and the rest. They all run
        at once; each result shows as it arrives.
      </Typography>

      {checks.isPending ? (
        <Stack direction="row" role="status" sx={{ gap: 1.5, alignItems: "center", py: 2 }}>
          <CircularProgress size={20} aria-hidden="true" />
          <Typography>Loading the checks…</Typography>
        </Stack>
      ) : checks.isError ? (
        <QueryError what="The list of checks" error={checks.error} onRetry={() => void checks.refetch()} />
      ) : ids && progress && items ? (
        <>
          <Stack direction="row" sx={{ gap: 2, alignItems: "center", flexWrap: "wrap", mb: 2 }}>
            <Box sx={{ flex: "1 1 240px" }}>
              <Typography
                role="status"
                aria-live="polite"
                sx={{
                  fontWeight: 600,
                  color: !progress.finished
                    ? undefined
                    : progress.failed > 0
                      ? "error.main"
                      : progress.warned > 0
                        ? "warning.dark"
                        : undefined,
                }}
              >
                {ids.length === 0 ? "This deployment offers no checks." : progress.message}
              </Typography>
              <LinearProgress
                variant="determinate"
                value={ids.length === 0 ? 100 : (progress.done / ids.length) * 100}
                color={
                  progress.finished
                    ? progress.failed > 0
                      ? "error"
                      : progress.warned > 0
                        ? "warning"
                        : "success"
                    : "primary"
                }
                aria-label="Checks done"
                sx={{ mt: 0.5, maxWidth: 480 }}
              />
            </Box>
            <Button
              variant="contained"
              startIcon={<Replay />}
              onClick={() => runAll(ids)}
              disabled={!progress.finished || ids.length === 0}
            >
              Run all again
            </Button>
          </Stack>
          <Stack component="ul" sx={{ gap: 1.5, p: 0, m: 0 }} aria-label="Checks">
            {items.map((check) => (
              <IntegrationCheckCard
                key={check.id}
                check={check}
                run={runs[check.id]}
                onRunAgain={() => run(check.id)}
              />
            ))}
          </Stack>
        </>
      ) : null}
      <JobQueueSection />
    </>
  );
}
