import Refresh from "@mui/icons-material/Refresh";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { JobKindSummary } from "@vigil/contract";
import { QueryError } from "../../../components/feedback/query-error";
import { useJobQueue } from "../api/get-job-queue";
import { FailedJobsTable } from "./failed-jobs-table";
import { waitInWords } from "./job-wait";

function oldestWait(kind: JobKindSummary): string {
  if (kind.oldestWaitingSeconds === null) return "none due";
  const wait = waitInWords(kind.oldestWaitingSeconds);
  if (kind.maxWaitSeconds === null) return wait;
  return `${wait} (limit ${waitInWords(kind.maxWaitSeconds)})`;
}

/**
 * The job queue (docs/design/JOBS.md, "Seeing the queue"): per kind what waits, runs and failed in the last 24 h and
 * how long its oldest due job has waited, a kind past its limit marked; then the jobs failed for good, to retry.
 */
export function JobQueueSection() {
  const queue = useJobQueue();
  const overdue = queue.data?.kinds.filter((kind) => kind.overdue) ?? [];
  return (
    <Stack component="section" aria-labelledby="job-queue-heading" sx={{ mt: 4, gap: 1 }}>
      <Stack direction="row" sx={{ alignItems: "center", gap: 2, flexWrap: "wrap" }}>
        <Typography id="job-queue-heading" variant="h6" component="h2" sx={{ flex: "1 1 auto" }}>
          Job queue
        </Typography>
        <Button
          startIcon={queue.isFetching ? <CircularProgress size={16} aria-hidden="true" /> : <Refresh />}
          onClick={() => void queue.refetch()}
          disabled={queue.isFetching}
        >
          Refresh
        </Button>
      </Stack>
      <Typography color="text.secondary">
        Work done later — sweeps, messages, escalations, the audit log's retention — waits here until an instance runs
        it. A job that failed every try stays here with its last error.
      </Typography>
      {queue.isPending ? (
        <Stack direction="row" role="status" sx={{ gap: 1.5, alignItems: "center", py: 2 }}>
          <CircularProgress size={20} aria-hidden="true" />
          <Typography>Loading the job queue…</Typography>
        </Stack>
      ) : queue.isError ? (
        <QueryError what="The job queue" error={queue.error} onRetry={() => void queue.refetch()} />
      ) : (
        <>
          {overdue.length > 0 ? (
            <Alert severity="error">
              {overdue.map((kind) => kind.kind).join(", ")}: the oldest job has waited past its limit; no instance seems
              to run {overdue.length === 1 ? "this kind" : "these kinds"}.
            </Alert>
          ) : null}
          {queue.data.kinds.length === 0 ? (
            <Typography color="text.secondary">This server runs no kind of job.</Typography>
          ) : (
            <Table size="small" aria-label="Jobs per kind">
              <TableHead>
                <TableRow>
                  <TableCell>Kind</TableCell>
                  <TableCell align="right">Waiting</TableCell>
                  <TableCell align="right">Running</TableCell>
                  <TableCell align="right">Failed in 24 h</TableCell>
                  <TableCell>Oldest waiting</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {queue.data.kinds.map((kind) => (
                  <TableRow key={kind.kind}>
                    <TableCell component="th" scope="row">
                      {kind.kind}
                    </TableCell>
                    <TableCell align="right">{kind.waiting}</TableCell>
                    <TableCell align="right">{kind.running}</TableCell>
                    <TableCell align="right">{kind.failedLastDay}</TableCell>
                    <TableCell sx={kind.overdue ? { color: "error.main", fontWeight: 600 } : undefined}>
                      {oldestWait(kind)}
                      {kind.overdue ? " — overdue" : ""}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
          <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mt: 2 }}>
            Failed jobs
          </Typography>
          <FailedJobsTable jobs={queue.data.failed} />
        </>
      )}
    </Stack>
  );
}
