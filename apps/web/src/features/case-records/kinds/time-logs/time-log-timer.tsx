import PlayArrow from "@mui/icons-material/PlayArrow";
import Stop from "@mui/icons-material/Stop";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import CircularProgress from "@mui/material/CircularProgress";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import FormControlLabel from "@mui/material/FormControlLabel";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import {
  type Case,
  type MonitoringMode,
  monitoringModes,
  type TimeLogData,
  type TimeLogList,
  timeLogActivities,
} from "@vigil/contract";
import { type FormEvent, useId, useState } from "react";
import { ZonedDateTime } from "../../../../components/dates/zoned-date-time";
import { Dialog } from "../../../../components/feedback/dialog";
import { apiErrorOf } from "../../../../components/forms/field-messages";
import { optionsOf, SelectField } from "../../../../components/forms/select-field";
import { useCreateRecord } from "../../api/create-record";
import { useReviseLatestTimeLog } from "../../api/revise-record";
import {
  activityLabels,
  defaultMode,
  elapsedInWords,
  formatElapsed,
  modeLabels,
  modeShortLabels,
} from "./time-log-labels";
import { useNow } from "./use-now";

type TimerStart = Pick<TimeLogData, "activity" | "mode" | "video" | "billable">;

function failureOf(error: unknown): string {
  return apiErrorOf(error)?.message ?? "The server could not be reached; try again.";
}

/** The few choices a timer needs; the start time is now, the end is when it is stopped. */
function StartTimerDialog({
  open,
  caseItem,
  pending,
  error,
  onStart,
  onClose,
}: {
  open: boolean;
  caseItem: Case;
  pending: boolean;
  error: string | null;
  onStart: (start: TimerStart) => void;
  onClose: () => void;
}) {
  const titleId = useId();
  const [activity, setActivity] = useState<TimerStart["activity"]>("monitoring");
  const [mode, setMode] = useState<MonitoringMode>(() => defaultMode(caseItem));
  const [video, setVideo] = useState(caseItem.hasVideo);
  const [billable, setBillable] = useState(true);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onStart({ activity, mode, video, billable });
  };
  return (
    <Dialog
      open={open}
      onClose={pending ? undefined : onClose}
      // Choices changed from what the dialog offered are edits like any form's: a stray Escape asks first.
      unsavedChanges={
        activity !== "monitoring" || mode !== defaultMode(caseItem) || video !== caseItem.hasVideo || !billable
      }
      aria-labelledby={titleId}
      maxWidth="xs"
      fullWidth
    >
      <form noValidate onSubmit={submit}>
        <DialogTitle id={titleId}>Start a time log</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <SelectField
              label="Activity"
              value={activity}
              onChange={(value) => setActivity(value as TimerStart["activity"])}
              options={optionsOf(timeLogActivities, activityLabels)}
              fullWidth
            />
            <SelectField
              label="Monitoring mode"
              value={mode}
              onChange={(value) => setMode(value as MonitoringMode)}
              options={optionsOf(monitoringModes, modeLabels)}
              fullWidth
            />
            <FormControlLabel
              label="Video recorded"
              control={<Checkbox checked={video} onChange={(event) => setVideo(event.target.checked)} />}
            />
            <FormControlLabel
              label="Billable"
              control={<Checkbox checked={billable} onChange={(event) => setBillable(event.target.checked)} />}
            />
            {error ? (
              <Alert severity="error" role="alert">
                The timer was not started: {error}
              </Alert>
            ) : null}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={pending}
            startIcon={pending ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : <PlayArrow />}
          >
            Start timer
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** The caller's running log ticking up, and the button that clocks it out. */
function RunningTimer({
  running,
  caseItem,
}: {
  running: NonNullable<TimeLogList["summary"]["runningMine"]>;
  caseItem: Case;
}) {
  const now = useNow(1000);
  const stop = useReviseLatestTimeLog(caseItem.id);
  const elapsed = now - Date.parse(running.data.startedAt);
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label="Your timer">
      <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ alignItems: { sm: "center" } }}>
        <Stack sx={{ flexGrow: 1 }}>
          <Typography>
            Your timer is running: {activityLabels[running.data.activity]} · {modeShortLabels[running.data.mode]}
            {running.data.video ? " · video" : ""}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            Started <ZonedDateTime value={running.data.startedAt} timeZone={caseItem.client.timezone} />
          </Typography>
        </Stack>
        <Typography
          role="timer"
          aria-label={`Elapsed ${elapsedInWords(elapsed)}`}
          sx={{ fontSize: "1.5rem", fontVariantNumeric: "tabular-nums", fontWeight: 600 }}
        >
          {formatElapsed(elapsed)}
        </Typography>
        <Button
          variant="contained"
          color="error"
          disabled={stop.isPending}
          startIcon={stop.isPending ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : <Stop />}
          onClick={() => stop.mutate({ change: "clock-out" })}
        >
          Stop timer
        </Button>
      </Stack>
      {stop.error ? (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          The timer was not stopped: {failureOf(stop.error)}
        </Alert>
      ) : null}
    </Paper>
  );
}

/**
 * The time-log tab's timer: "Start timer" creates a log starting now; while the caller has one running on this
 * case it ticks, and "Stop timer" clocks it out through `time-logs/latest`. Overlapping logs are refused by the
 * server (409), whose words are shown as they are.
 */
export function TimeLogTimer({ list, caseItem }: { list: TimeLogList; caseItem: Case }) {
  const [open, setOpen] = useState(false);
  const create = useCreateRecord("time-log", caseItem.id);
  const running = list.summary.runningMine;
  if (running) return <RunningTimer running={running} caseItem={caseItem} />;
  if (!list.write.allowed) return null;

  const start = (choice: TimerStart) =>
    create.mutate(
      { ...choice, startedAt: new Date().toISOString(), endedAt: null, channels: null, notes: "" },
      { onSuccess: () => setOpen(false) },
    );
  return (
    <>
      <Button
        variant="contained"
        startIcon={<PlayArrow />}
        onClick={() => {
          create.reset();
          setOpen(true);
        }}
      >
        Start timer
      </Button>
      <StartTimerDialog
        open={open}
        caseItem={caseItem}
        pending={create.isPending}
        error={create.error ? failureOf(create.error) : null}
        onStart={start}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
