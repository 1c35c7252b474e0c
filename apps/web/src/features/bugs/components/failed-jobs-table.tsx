import Replay from "@mui/icons-material/Replay";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { FailedJob } from "@vigil/contract";
import { useState } from "react";
import { ConfirmDialog } from "../../../components/feedback/confirm-dialog";
import { visuallyHidden } from "../../../components/visually-hidden";
import { ApiRequestError } from "../../../lib/api-client";
import { useRetryJob } from "../api/retry-job";

/** Past this many characters an error shows its start and a "Show all" that opens the rest in place. */
const shortErrorLength = 120;

function LastError({ text }: { text: string | null }) {
  const [open, setOpen] = useState(false);
  if (!text) return <Typography variant="body2">No error recorded</Typography>;
  if (text.length <= shortErrorLength) return <Typography variant="body2">{text}</Typography>;
  return (
    <>
      <Typography variant="body2" sx={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>
        {open ? text : `${text.slice(0, shortErrorLength)}…`}
      </Typography>
      <Button size="small" onClick={() => setOpen(!open)} aria-expanded={open}>
        {open ? "Show less" : "Show all"}
      </Button>
    </>
  );
}

const at = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : "—");

/**
 * The jobs that failed for good, each with its last error and a Retry that asks first (it sets the job going again,
 * due now, its attempts from zero; audited as jobs.retry, docs/design/JOBS.md).
 */
export function FailedJobsTable({ jobs }: { jobs: readonly FailedJob[] }) {
  const retry = useRetryJob();
  const [chosen, setChosen] = useState<FailedJob | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const close = () => {
    setChosen(null);
    retry.reset();
  };
  const confirm = () => {
    if (!chosen) return;
    const job = chosen;
    retry.mutate(job.id, {
      onSuccess: () => {
        setDone(`The ${job.kind} job waits again and runs as soon as an instance claims it.`);
        setChosen(null);
      },
    });
  };
  const failure =
    retry.error instanceof ApiRequestError
      ? retry.error.body.message
      : retry.error
        ? "The retry could not be sent; try again."
        : null;

  return (
    <>
      {done ? (
        <Alert severity="success" role="status" onClose={() => setDone(null)} sx={{ my: 1 }}>
          {done}
        </Alert>
      ) : null}
      {jobs.length === 0 ? (
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          No job has failed for good.
        </Typography>
      ) : (
        <Table size="small" aria-label="Failed jobs">
          <TableHead>
            <TableRow>
              <TableCell>Kind</TableCell>
              <TableCell align="right">Attempts</TableCell>
              <TableCell>Last error</TableCell>
              <TableCell>Failed</TableCell>
              <TableCell>
                <Box component="span" sx={visuallyHidden}>
                  Action
                </Box>
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {jobs.map((job) => (
              <TableRow key={job.id}>
                <TableCell>{job.kind}</TableCell>
                <TableCell align="right">{job.attempts}</TableCell>
                <TableCell sx={{ maxWidth: 480 }}>
                  <LastError text={job.lastError} />
                </TableCell>
                <TableCell>{at(job.finishedAt ?? job.createdAt)}</TableCell>
                <TableCell>
                  <Button
                    size="small"
                    startIcon={<Replay />}
                    onClick={() => {
                      setDone(null);
                      setChosen(job);
                    }}
                    aria-label={`Retry the ${job.kind} job that failed ${at(job.finishedAt ?? job.createdAt)}`}
                  >
                    Retry
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <ConfirmDialog
        open={chosen !== null}
        title="Retry this job?"
        confirmLabel="Retry"
        pending={retry.isPending}
        error={failure}
        onConfirm={confirm}
        onClose={close}
      >
        The {chosen?.kind} job runs again now, with its attempts counted from zero. Its handler is safe to run twice;
        the retry is recorded in the audit log.
      </ConfirmDialog>
    </>
  );
}
