import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { Case, TimeLogItem, TimeLogList } from "@vigil/contract";
import { useId } from "react";
import { ZonedDateTime } from "../../../../components/dates/zoned-date-time";
import { activityLabels, authorName, formatMinutes, modeShortLabels } from "./time-log-labels";

function patients(count: number): string {
  return `${count} patient${count === 1 ? "" : "s"}`;
}

/** One segment: whose, when, how long, at which monitoring level, and how many patients they had at once. */
export function TimeLogItemBody({ item, caseItem }: { item: TimeLogItem; caseItem: Case }) {
  const zone = caseItem.client.timezone;
  const { data } = item;
  return (
    <Stack spacing={1}>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: "wrap", alignItems: "center" }}>
        <Typography sx={{ fontWeight: 600 }}>{authorName(item.technologist)}</Typography>
        <Typography>
          {activityLabels[data.activity]} · {modeShortLabels[data.mode]}
        </Typography>
        {item.running ? <Chip size="small" color="info" label="Running" /> : null}
        <Chip size="small" variant="outlined" label={data.video ? "Video" : "No video"} />
        <Chip
          size="small"
          variant="outlined"
          color={data.billable ? "success" : "default"}
          label={data.billable ? "Billable" : "Not billable"}
        />
      </Stack>
      <Typography>
        <ZonedDateTime value={data.startedAt} timeZone={zone} />
        {" – "}
        {data.endedAt ? <ZonedDateTime value={data.endedAt} timeZone={zone} /> : "running"}
        {" · "}
        {formatMinutes(item.durationMinutes)}
        {item.running ? " so far" : ""}
        {data.channels === null ? "" : ` · ${data.channels} channels`}
      </Typography>
      <Typography variant="body2">
        {item.cap === null
          ? `At most ${patients(item.concurrentPeak)} at once (no cap for unmonitored)`
          : `At most ${item.concurrentPeak} of ${item.cap} ${modeShortLabels[data.mode].toLowerCase()} patients at once`}
      </Typography>
      {item.overCap ? (
        <Alert severity="warning">
          Over the cap: {authorName(item.technologist)} had {patients(item.concurrentPeak)} under{" "}
          {modeShortLabels[data.mode].toLowerCase()} monitoring at once during this log; the cap is {item.cap}.
        </Alert>
      ) : null}
      {data.notes ? <Typography sx={{ whiteSpace: "pre-wrap" }}>{data.notes}</Typography> : null}
    </Stack>
  );
}

/** The review-check rule of intermittent monitoring, the technologists' load against the caps, billable time. */
export function TimeLogSummary({ list, caseItem }: { list: TimeLogList; caseItem: Case }) {
  const zone = caseItem.client.timezone;
  const { reviewCheck, technologists, caps, billableMinutes } = list.summary;
  const loadId = useId();
  return (
    <Stack spacing={1}>
      {reviewCheck.required && reviewCheck.overdue ? (
        <Alert severity="error" role="alert">
          Review check overdue: intermittent monitoring needs a documented review check at least every 2 h. Last:{" "}
          {reviewCheck.lastAt ? <ZonedDateTime value={reviewCheck.lastAt} timeZone={zone} /> : "none yet"}
          {reviewCheck.dueAt ? (
            <>
              ; due <ZonedDateTime value={reviewCheck.dueAt} timeZone={zone} />
            </>
          ) : null}
          . Record it as a review-check event.
        </Alert>
      ) : null}
      {reviewCheck.required && !reviewCheck.overdue ? (
        <Typography variant="body2">
          Review checks (intermittent, every 2 h): last{" "}
          {reviewCheck.lastAt ? <ZonedDateTime value={reviewCheck.lastAt} timeZone={zone} /> : "none yet"}
          {reviewCheck.dueAt ? (
            <>
              ; next due <ZonedDateTime value={reviewCheck.dueAt} timeZone={zone} />
            </>
          ) : null}
        </Typography>
      ) : null}
      {technologists.length > 0 ? (
        <Box>
          <Typography variant="body2" id={loadId}>
            Technologists on this case now (patients against the caps):
          </Typography>
          <Box component="ul" aria-labelledby={loadId} sx={{ my: 0.5, pl: 3 }}>
            {technologists.map((load) => (
              <li key={load.technologist.username}>
                <Typography variant="body2" component="span">
                  {authorName(load.technologist)}: {load.intermittent} of {caps.intermittent} intermittent,{" "}
                  {load.continuous} of {caps.continuous} continuous
                </Typography>{" "}
                {load.overCap ? <Chip size="small" color="warning" label="Over cap" /> : null}
              </li>
            ))}
          </Box>
        </Box>
      ) : null}
      <Typography variant="body2">Billable time: {formatMinutes(billableMinutes)}</Typography>
    </Stack>
  );
}
