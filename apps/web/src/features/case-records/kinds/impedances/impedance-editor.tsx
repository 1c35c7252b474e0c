import Alert from "@mui/material/Alert";
import Grid from "@mui/material/Grid";
import Stack from "@mui/material/Stack";
import { alpha } from "@mui/material/styles";
import Typography from "@mui/material/Typography";
import {
  type Electrode,
  electrodes,
  type ImpedanceData,
  type ImpedanceInput,
  impedanceDataSchema,
  isoDateTimeSchema,
} from "@vigil/contract";
import { type Control, useFormState, useWatch } from "react-hook-form";
import { z } from "zod";
import { isoToZonedInput } from "../../../../components/dates/zoned-input";
import { ZonedTimeField } from "../../../../components/dates/zoned-time-field";
import { labelledMessage, serverFieldErrors } from "../../../../components/forms/field-messages";
import { FormTextField } from "../../../../components/forms/form-text-field";
import { showServerErrors, useContractForm } from "../../../../components/forms/use-contract-form";
import type { RecordEditorProps } from "../../components/record-view";
import { FormServerError, RecordEditorForm } from "../form-parts";
import { nowInZone, numberOrNull, numberText, zonedInstant } from "../form-values";
import { ElectrodeHeadMap } from "./electrode-head-map";
import { ImpedanceLegend } from "./impedance-grid";
import { ImpedanceLevelIcon } from "./impedance-level-icon";
import { impedanceLevel, impedanceLevelColors, impedanceLevelLabels } from "./impedance-levels";

export type ImpedanceFormValues = {
  checkedAt: string;
  /** One box per electrode; blank = not measured. */
  kohm: Record<Electrode, string>;
  notes: string;
};

const kohmSchema = impedanceDataSchema.shape.values.element.shape.kohm;

/**
 * The form's own shape (one box per electrode, so each message sits under its box), turned into the contract's
 * check and checked again by it ("enter at least one electrode").
 */
export const impedanceFormSchema = z
  .object({
    checkedAt: isoDateTimeSchema,
    kohm: z.object(
      Object.fromEntries(electrodes.map((electrode) => [electrode, kohmSchema.nullable()])) as Record<
        Electrode,
        z.ZodNullable<typeof kohmSchema>
      >,
    ),
    notes: impedanceDataSchema.shape.notes,
  })
  .transform(
    (value): ImpedanceInput => ({
      checkedAt: value.checkedAt,
      values: electrodes.flatMap((electrode) => {
        const kohm = value.kohm[electrode];
        return kohm === null || kohm === undefined ? [] : [{ electrode, kohm }];
      }),
      notes: value.notes,
    }),
  )
  .pipe(impedanceDataSchema);

export function impedanceFormValues(initial: ImpedanceData | undefined, timeZone: string): ImpedanceFormValues {
  const byElectrode = new Map((initial?.values ?? []).map((value) => [value.electrode, value.kohm]));
  return {
    checkedAt: initial ? isoToZonedInput(initial.checkedAt, timeZone) : nowInZone(timeZone),
    kohm: Object.fromEntries(
      electrodes.map((electrode) => [electrode, numberText(byElectrode.get(electrode))]),
    ) as Record<Electrode, string>,
    notes: initial?.notes ?? "",
  };
}

function toInput(timeZone: string) {
  return (values: ImpedanceFormValues) => ({
    checkedAt: zonedInstant(values.checkedAt, timeZone, undefined),
    kohm: Object.fromEntries(electrodes.map((electrode) => [electrode, numberOrNull(values.kohm[electrode])])),
    notes: values.notes,
  });
}

/** A server message about `values.3.kohm` belongs under the box of the fourth electrode sent. */
function serverErrorsOnBoxes(error: unknown, sent: ImpedanceData): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [path, message] of Object.entries(serverFieldErrors(error))) {
    const match = /^values\.(\d+)(?:\.\w+)?$/.exec(path);
    const electrode = match ? sent.values[Number(match[1])]?.electrode : undefined;
    errors[electrode ? `kohm.${electrode}` : path === "values" ? "root.server" : path] = message;
  }
  return errors;
}

function ElectrodeInput({
  control,
  electrode,
  thresholdKohm,
}: {
  control: Control<ImpedanceFormValues, unknown, ImpedanceData>;
  electrode: Electrode;
  thresholdKohm: number;
}) {
  const text = useWatch({ control, name: `kohm.${electrode}` });
  const value = numberOrNull(text);
  const level = typeof value === "number" && value >= 0 ? impedanceLevel(value, thresholdKohm) : undefined;
  const color = level ? impedanceLevelColors[level] : undefined;
  return (
    <FormTextField
      control={control}
      name={`kohm.${electrode}`}
      label={`${electrode} (kΩ)`}
      size="small"
      fullWidth
      plainMessages
      slotProps={{ htmlInput: { inputMode: "decimal", "data-level": level ?? "not-measured" } }}
      help={
        level ? (
          <Stack component="span" direction="row" spacing={0.5} sx={{ alignItems: "center" }}>
            <ImpedanceLevelIcon level={level} sx={{ fontSize: 14 }} />
            <span>{impedanceLevelLabels[level]}</span>
          </Stack>
        ) : (
          "not measured"
        )
      }
      sx={
        color
          ? {
              "& .MuiOutlinedInput-root": { bgcolor: (theme) => alpha(theme.palette[color].main, 0.12) },
              "& .MuiOutlinedInput-notchedOutline": { borderColor: `${color}.main`, borderWidth: 2 },
            }
          : undefined
      }
    />
  );
}

/** "Enter at least one electrode": the check as a whole, which has no box of its own. */
function ElectrodesError({ control }: { control: Control<ImpedanceFormValues, unknown, ImpedanceData> }) {
  const { errors } = useFormState({ control });
  const values = (errors as { values?: { message?: string; root?: { message?: string } } }).values;
  const message = values?.message ?? values?.root?.message;
  return message ? (
    <Alert severity="error" role="alert">
      {labelledMessage("Electrodes:", message)}
    </Alert>
  ) : null;
}

export type ImpedanceEditorProps = RecordEditorProps<ImpedanceData> & { thresholdKohm: number };

/**
 * An impedance check as the technologist reads it off the amplifier: one box per electrode on the head map,
 * each coloured by level as it is typed; the time in the client's zone; notes.
 */
export function ImpedanceEditorForm(props: ImpedanceEditorProps) {
  const { caseItem, initial, thresholdKohm } = props;
  const zone = caseItem.client.timezone;
  const form = useContractForm({
    schema: impedanceFormSchema,
    defaultValues: impedanceFormValues(initial, zone),
    toInput: toInput(zone),
  });

  return (
    <RecordEditorForm
      form={form}
      label="Impedance check"
      editor={props}
      // Field problems go under their boxes; anything else is the tab's to show.
      placeErrors={(error, data) => showServerErrors(form.setError, serverErrorsOnBoxes(error, data))}
    >
      <Stack spacing={2}>
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, sm: 6 }}>
            <ZonedTimeField
              control={form.control}
              name="checkedAt"
              label="Checked at"
              timeZone={zone}
              required
              fullWidth
            />
          </Grid>
        </Grid>
        <Typography variant="subtitle1" component="h3">
          Electrodes
        </Typography>
        <Typography variant="body2" color="text.secondary">
          Enter kΩ for each electrode measured; leave the others blank. Above {thresholdKohm} kΩ an electrode is
          flagged.
        </Typography>
        <ImpedanceLegend thresholdKohm={thresholdKohm} />
        <ElectrodesError control={form.control} />
        <FormServerError control={form.control} />
        <ElectrodeHeadMap
          component="div"
          label="Impedance per electrode"
          renderCell={(electrode) => (
            <ElectrodeInput control={form.control} electrode={electrode} thresholdKohm={thresholdKohm} />
          )}
        />
        <FormTextField control={form.control} name="notes" label="Notes" multiline minRows={2} fullWidth />
      </Stack>
    </RecordEditorForm>
  );
}
