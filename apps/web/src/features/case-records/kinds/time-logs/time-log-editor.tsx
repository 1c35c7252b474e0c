import Grid from "@mui/material/Grid";
import Typography from "@mui/material/Typography";
import {
  billableTimeMargins,
  formatInstantInZone,
  monitoringModes,
  type TimeLogData,
  timeLogActivities,
  timeLogDataSchema,
} from "@vigil/contract";
import { useWatch } from "react-hook-form";
import { isoToZonedInput } from "../../../../components/dates/zoned-input";
import { ZonedTimeField } from "../../../../components/dates/zoned-time-field";
import { CheckboxField } from "../../../../components/forms/checkbox-field";
import { FormTextField } from "../../../../components/forms/form-text-field";
import { FormSelectField, optionsOf } from "../../../../components/forms/select-field";
import { applyServerError, useContractForm } from "../../../../components/forms/use-contract-form";
import type { RecordEditorProps } from "../../components/record-view";
import { RecordEditorForm } from "../form-parts";
import { nowInZone, numberOrNull, numberText, zonedInstant } from "../form-values";
import { activityLabels, defaultMode, modeLabels } from "./time-log-labels";

export type TimeLogFormValues = {
  activity: TimeLogData["activity"];
  mode: TimeLogData["mode"];
  video: boolean;
  startedAt: string;
  /** Blank = still running. */
  endedAt: string;
  billable: boolean;
  channels: string;
  notes: string;
};

function formValues(initial: TimeLogData | undefined, caseItem: RecordEditorProps<TimeLogData>["caseItem"]) {
  const zone = caseItem.client.timezone;
  return {
    activity: initial?.activity ?? "monitoring",
    mode: initial?.mode ?? defaultMode(caseItem),
    video: initial?.video ?? caseItem.hasVideo,
    startedAt: initial ? isoToZonedInput(initial.startedAt, zone) : nowInZone(zone),
    endedAt: isoToZonedInput(initial?.endedAt, zone),
    billable: initial?.billable ?? true,
    channels: numberText(initial?.channels),
    notes: initial?.notes ?? "",
  } satisfies TimeLogFormValues;
}

function toInput(zone: string) {
  return (values: TimeLogFormValues) => ({
    ...values,
    startedAt: zonedInstant(values.startedAt, zone, undefined),
    endedAt: zonedInstant(values.endedAt, zone, null),
    channels: numberOrNull(values.channels),
  });
}

const hourMs = 3_600_000;

/**
 * Where billable time may lie (the server refuses it elsewhere): from a little before the recording started (or,
 * until that is set, before the case was opened) to a little after it ended, times in the client's zone.
 */
export function billableWindowText(caseItem: RecordEditorProps<TimeLogData>["caseItem"]): string {
  const zone = caseItem.client.timezone;
  const { beforeStartHours, afterEndHours } = billableTimeMargins;
  const anchor = caseItem.recordingStartedAt ?? caseItem.createdAt;
  const from = formatInstantInZone(new Date(Date.parse(anchor) - beforeStartHours * hourMs).toISOString(), zone);
  const since = caseItem.recordingStartedAt
    ? `${beforeStartHours} h before the recording started`
    : `${beforeStartHours} h before the case was opened (no recording start yet)`;
  const ended = caseItem.recordingEndedAt;
  const until = ended
    ? ` and end by ${formatInstantInZone(new Date(Date.parse(ended) + afterEndHours * hourMs).toISOString(), zone)}, ${afterEndHours} h after the recording ended`
    : "";
  return `Billable time must start at or after ${from}, ${since}${until}.`;
}

/**
 * A time log entered by hand (a segment worked without the timer, or a correction): one contiguous segment with
 * its monitoring level, video and billability, times in the client's zone.
 */
export function TimeLogEditor(props: RecordEditorProps<TimeLogData>) {
  const { caseItem, initial } = props;
  const zone = caseItem.client.timezone;
  const form = useContractForm({
    schema: timeLogDataSchema,
    defaultValues: formValues(initial, caseItem),
    toInput: toInput(zone),
  });
  const billable = useWatch({ control: form.control, name: "billable" });
  return (
    <RecordEditorForm
      form={form}
      label="Time log"
      editor={props}
      placeErrors={(error) => applyServerError(form.setError, error)}
    >
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, sm: 6 }}>
          <FormSelectField
            control={form.control}
            name="activity"
            label="Activity"
            fullWidth
            options={optionsOf(timeLogActivities, activityLabels)}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <FormSelectField
            control={form.control}
            name="mode"
            label="Monitoring mode"
            fullWidth
            options={optionsOf(monitoringModes, modeLabels)}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <ZonedTimeField
            control={form.control}
            name="startedAt"
            label="Started at"
            timeZone={zone}
            required
            fullWidth
            deps={["endedAt"]}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <ZonedTimeField
            control={form.control}
            name="endedAt"
            label="Ended at"
            timeZone={zone}
            note="empty = still running"
            fullWidth
          />
        </Grid>
        {billable ? (
          <Grid size={12}>
            <Typography variant="body2" color="text.secondary">
              {billableWindowText(caseItem)}
            </Typography>
          </Grid>
        ) : null}
        <Grid size={{ xs: 12, sm: 4 }}>
          <CheckboxField control={form.control} name="video" label="Video recorded" />
        </Grid>
        <Grid size={{ xs: 12, sm: 4 }}>
          <CheckboxField control={form.control} name="billable" label="Billable" />
        </Grid>
        <Grid size={{ xs: 12, sm: 4 }}>
          <FormTextField
            control={form.control}
            name="channels"
            label="Channels"
            fullWidth
            help="Recording channels; blank if not recorded"
            slotProps={{ htmlInput: { inputMode: "numeric" } }}
          />
        </Grid>
        <Grid size={12}>
          <FormTextField control={form.control} name="notes" label="Notes" multiline minRows={2} fullWidth />
        </Grid>
      </Grid>
    </RecordEditorForm>
  );
}
