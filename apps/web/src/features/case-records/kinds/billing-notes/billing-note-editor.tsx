import Add from "@mui/icons-material/Add";
import RemoveCircleOutlined from "@mui/icons-material/RemoveCircleOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Grid from "@mui/material/Grid";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { type BillingNoteData, billingNoteDataSchema, type CptWarningId } from "@vigil/contract";
import { type Control, useController, useFieldArray } from "react-hook-form";
import { labelledMessage } from "../../../../components/forms/field-messages";
import { FormTextField } from "../../../../components/forms/form-text-field";
import { keepServerMessageOnBlur, useContractForm } from "../../../../components/forms/use-contract-form";
import type { RecordEditorProps } from "../../components/record-view";
import { RecordEditorForm } from "../form-parts";
import { AcknowledgeWarningsField } from "./acknowledge-warnings-field";

export type BillingNoteFormValues = {
  body: string;
  cptCodes: { code: string; units: string; modifiers: string }[];
  adjustments: string;
  acknowledgedWarnings: CptWarningId[];
};

export function billingNoteFormValues(data: BillingNoteData | undefined): BillingNoteFormValues {
  return {
    body: data?.body ?? "",
    cptCodes: (data?.cptCodes ?? []).map((line) => ({
      code: line.code,
      units: String(line.units),
      modifiers: line.modifiers.join(" "),
    })),
    adjustments: data?.adjustments ?? "",
    acknowledgedWarnings: data?.acknowledgedWarnings ?? [],
  };
}

/** Units as a number (empty → the contract's default of 1); modifiers typed "26 59" or "26, 59" → ["26", "59"]. */
export function billingNoteInput(values: BillingNoteFormValues) {
  return {
    body: values.body,
    cptCodes: values.cptCodes.map((line) => ({
      code: line.code,
      units: line.units.trim() === "" ? undefined : Number(line.units),
      modifiers: line.modifiers
        .split(/[\s,]+/)
        .filter(Boolean)
        .map((modifier) => modifier.toUpperCase()),
    })),
    adjustments: values.adjustments,
    acknowledgedWarnings: values.acknowledgedWarnings,
  };
}

/**
 * The modifiers of one line are one text box but a list in the request: a message about any one of them
 * (`cptCodes.0.modifiers.1`) is shown under the box.
 */
function ModifiersField({
  control,
  index,
  label,
}: {
  control: Control<BillingNoteFormValues, unknown, unknown>;
  index: number;
  label: string;
}) {
  const { field, fieldState } = useController({ control, name: `cptCodes.${index}.modifiers` });
  const error = fieldState.error as
    | ({ message?: string } & Record<number, { message?: string } | undefined>)
    | undefined;
  const nested = error ? Object.values(error).find((entry) => typeof entry === "object" && entry?.message) : undefined;
  const message = error?.message ?? (nested as { message?: string } | undefined)?.message;
  return (
    <TextField
      name={field.name}
      value={field.value ?? ""}
      onChange={field.onChange}
      onBlur={keepServerMessageOnBlur(field.onBlur, fieldState)}
      inputRef={field.ref}
      label={label}
      fullWidth
      error={Boolean(message)}
      helperText={message ? labelledMessage(label, message) : "Up to 4, e.g. 26 59"}
    />
  );
}

/**
 * A billing note: what billing needs to know, the CPT code lines with units and modifiers, adjustments, and which
 * of the case's CPT warnings it acknowledges.
 */
export function BillingNoteEditor(props: RecordEditorProps<BillingNoteData>) {
  const { caseItem, initial } = props;
  const form = useContractForm({
    schema: billingNoteDataSchema,
    defaultValues: billingNoteFormValues(initial),
    toInput: billingNoteInput,
  });
  const { control } = form;
  const lines = useFieldArray({ control, name: "cptCodes" });
  return (
    <RecordEditorForm form={form} label="Billing note" editor={props}>
      <Stack spacing={2}>
        <FormTextField control={control} name="body" label="Note" required fullWidth multiline minRows={4} autoFocus />
        <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
          <Typography component="legend" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
            CPT codes
          </Typography>
          {lines.fields.length === 0 ? (
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              No CPT code lines.
            </Typography>
          ) : null}
          <Stack spacing={2}>
            {lines.fields.map((line, index) => (
              <Grid container spacing={2} key={line.id} sx={{ alignItems: "flex-start" }}>
                <Grid size={{ xs: 12, sm: 4 }}>
                  <FormTextField
                    control={control}
                    name={`cptCodes.${index}.code`}
                    label={`CPT code ${index + 1}`}
                    required
                    fullWidth
                    slotProps={{ htmlInput: { inputMode: "numeric", maxLength: 5 } }}
                  />
                </Grid>
                <Grid size={{ xs: 12, sm: 2 }}>
                  <FormTextField
                    control={control}
                    name={`cptCodes.${index}.units`}
                    label={`Units ${index + 1}`}
                    type="number"
                    fullWidth
                    slotProps={{ htmlInput: { min: 1, max: 99, step: 1 } }}
                  />
                </Grid>
                <Grid size={{ xs: 10, sm: 5 }}>
                  <ModifiersField control={control} index={index} label={`Modifiers ${index + 1}`} />
                </Grid>
                <Grid size={{ xs: 2, sm: 1 }}>
                  <IconButton aria-label={`Remove CPT code line ${index + 1}`} onClick={() => lines.remove(index)}>
                    <RemoveCircleOutlined />
                  </IconButton>
                </Grid>
              </Grid>
            ))}
          </Stack>
          <Button
            startIcon={<Add />}
            onClick={() => lines.append({ code: "", units: "1", modifiers: "" })}
            disabled={lines.fields.length >= 30}
            sx={{ mt: 1 }}
          >
            Add CPT code
          </Button>
        </Box>
        <FormTextField control={control} name="adjustments" label="Adjustments" fullWidth multiline minRows={2} />
        <AcknowledgeWarningsField control={control} caseItem={caseItem} />
      </Stack>
    </RecordEditorForm>
  );
}
