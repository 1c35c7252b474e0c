import Add from "@mui/icons-material/Add";
import Delete from "@mui/icons-material/Delete";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Grid from "@mui/material/Grid";
import IconButton from "@mui/material/IconButton";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import {
  acnsDurations,
  acnsEvolutions,
  acnsLocations,
  acnsPatterns,
  acnsPlusModifiers,
  acnsPrevalences,
  type InterpretationData,
  interpretationDataSchema,
  seizureClassifications,
} from "@vigil/contract";
import { type ReactNode, useId } from "react";
import { useFieldArray, useFormState, useWatch } from "react-hook-form";
import { ZonedTimeField } from "../../../../components/dates/zoned-time-field";
import { CheckboxField } from "../../../../components/forms/checkbox-field";
import { labelledMessage } from "../../../../components/forms/field-messages";
import { FormTextField } from "../../../../components/forms/form-text-field";
import { FormSelectField, optionsOf } from "../../../../components/forms/select-field";
import { applyServerError, type ContractForm, useContractForm } from "../../../../components/forms/use-contract-form";
import type { RecordEditorProps } from "../../components/record-view";
import { FormServerError, RecordEditorForm } from "../form-parts";
import {
  acnsLabel,
  backgroundSelects,
  findingShorthand,
  reportTypeLabels,
  seizureClassificationLabels,
  seizureCriteria,
} from "./acns-terms";
import {
  emptyFinding,
  type InterpretationFormValues,
  interpretationFormValues,
  interpretationInput,
} from "./interpretation-form";

type InterpretationForm = ContractForm<InterpretationFormValues, typeof interpretationDataSchema>;

const maxFindings = 20;

/** A group of the report's fields under its heading (single-text sections are their field, labelled alike). */
function Section({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography id={headingId} variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function FindingsEditor({ form }: { form: InterpretationForm }) {
  const { control } = form;
  const { fields: items, append, remove } = useFieldArray({ control, name: "findings" });
  const findings = useWatch({ control, name: "findings" });
  const { errors } = useFormState({ control, name: "findings" });
  const listError = errors.findings?.root?.message ?? errors.findings?.message;
  return (
    <Stack spacing={2}>
      {listError ? (
        <Alert severity="error" role="alert">
          {labelledMessage("Findings", listError)}
        </Alert>
      ) : null}
      {items.length === 0 ? (
        <Typography color="text.secondary">No rhythmic or periodic patterns recorded.</Typography>
      ) : null}
      {items.map((item, index) => {
        const finding = findings[index] ?? item;
        const number = index + 1;
        const base = `findings.${index}` as const;
        const name = `Finding ${number}`;
        const term =
          finding.location && finding.pattern
            ? findingShorthand({
                location: finding.location,
                pattern: finding.pattern,
                plusModifier: finding.plusModifier,
              })
            : "not yet described";
        return (
          <Paper key={item.id} variant="outlined" component="fieldset" sx={{ p: 2, m: 0 }}>
            <Stack direction="row" sx={{ alignItems: "center", mb: 1 }}>
              <Typography component="legend" sx={{ fontWeight: 600, flexGrow: 1, float: "left" }}>
                {name}: {term}
              </Typography>
              <Tooltip title="Remove finding">
                <IconButton aria-label={`Remove finding ${number}`} onClick={() => remove(index)}>
                  <Delete />
                </IconButton>
              </Tooltip>
            </Stack>
            <Grid container spacing={2}>
              <Grid size={{ xs: 12, sm: 6, md: 4 }}>
                <FormSelectField
                  control={control}
                  name={`${base}.location`}
                  label={`${name} location`}
                  required
                  fullWidth
                  emptyLabel="Choose…"
                  options={optionsOf(acnsLocations, acnsLabel)}
                />
              </Grid>
              <Grid size={{ xs: 12, sm: 6, md: 4 }}>
                <FormSelectField
                  control={control}
                  name={`${base}.pattern`}
                  label={`${name} pattern`}
                  required
                  fullWidth
                  emptyLabel="Choose…"
                  options={optionsOf(acnsPatterns, acnsLabel)}
                />
              </Grid>
              <Grid size={{ xs: 12, sm: 6, md: 4 }}>
                <FormSelectField
                  control={control}
                  name={`${base}.plusModifier`}
                  label={`${name} plus modifier`}
                  fullWidth
                  options={optionsOf(acnsPlusModifiers, acnsLabel)}
                />
              </Grid>
              <Grid size={{ xs: 12, sm: 6, md: 4 }}>
                <FormSelectField
                  control={control}
                  name={`${base}.prevalence`}
                  label={`${name} prevalence`}
                  required
                  fullWidth
                  emptyLabel="Choose…"
                  options={optionsOf(acnsPrevalences, acnsLabel)}
                />
              </Grid>
              <Grid size={{ xs: 12, sm: 6, md: 4 }}>
                <FormSelectField
                  control={control}
                  name={`${base}.duration`}
                  label={`${name} duration`}
                  fullWidth
                  emptyLabel="Not stated"
                  options={optionsOf(acnsDurations, acnsLabel)}
                />
              </Grid>
              <Grid size={{ xs: 12, sm: 6, md: 4 }}>
                <FormTextField
                  control={control}
                  name={`${base}.frequencyHz`}
                  label={`${name} frequency (Hz)`}
                  fullWidth
                  help="Typical frequency; blank if not stated"
                  slotProps={{ htmlInput: { inputMode: "decimal" } }}
                />
              </Grid>
              <Grid size={{ xs: 12, sm: 6, md: 4 }}>
                <FormSelectField
                  control={control}
                  name={`${base}.evolution`}
                  label={`${name} evolution`}
                  fullWidth
                  options={optionsOf(acnsEvolutions, acnsLabel)}
                />
              </Grid>
              <Grid size={{ xs: 12, sm: 6, md: 8 }}>
                <CheckboxField
                  control={control}
                  name={`${base}.stimulusInduced`}
                  label={`${name} stimulus-induced (SI)`}
                />
              </Grid>
              <Grid size={12}>
                <FormTextField control={control} name={`${base}.notes`} label={`${name} notes`} fullWidth multiline />
              </Grid>
            </Grid>
          </Paper>
        );
      })}
      <div>
        <Button
          startIcon={<Add />}
          variant="outlined"
          disabled={items.length >= maxFindings}
          onClick={() => append({ ...emptyFinding }, { shouldFocus: false })}
        >
          Add finding
        </Button>
      </div>
    </Stack>
  );
}

function SeizureCriteria({ form }: { form: InterpretationForm }) {
  const classification = useWatch({ control: form.control, name: "seizures.classification" });
  return <>{seizureCriteria[classification]}</>;
}

/**
 * An interpretation as ACNS Guideline 7 lays out a report (history, technical description, background, findings,
 * seizures, impression, clinical correlation), with the background and findings chosen from the ACNS 2021
 * critical-care vocabulary rather than typed, so reports read and count alike.
 */
export function InterpretationEditor(props: RecordEditorProps<InterpretationData>) {
  const { caseItem, initial } = props;
  const zone = caseItem.client.timezone;
  const form = useContractForm({
    schema: interpretationDataSchema,
    defaultValues: interpretationFormValues(initial, caseItem),
    toInput: interpretationInput(zone),
  });
  const { control } = form;
  return (
    <RecordEditorForm
      form={form}
      label="Interpretation"
      editor={props}
      placeErrors={(error) => applyServerError(form.setError, error)}
    >
      <Stack spacing={3}>
        <FormServerError control={control} />
        <Section title="Report">
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, md: 4 }}>
              <FormSelectField
                control={control}
                name="reportType"
                label="Report type"
                fullWidth
                options={optionsOf(["daily", "summary"], (value) => reportTypeLabels[value as "daily" | "summary"])}
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 6, md: 4 }}>
              <ZonedTimeField
                control={control}
                name="periodFrom"
                label="Period from"
                timeZone={zone}
                required
                fullWidth
                deps={["periodTo"]}
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 6, md: 4 }}>
              <ZonedTimeField control={control} name="periodTo" label="Period to" timeZone={zone} required fullWidth />
            </Grid>
          </Grid>
        </Section>
        <FormTextField
          control={control}
          name="history"
          label="History"
          help="Indication, relevant history, medications, state"
          multiline
          minRows={2}
          fullWidth
        />
        <FormTextField
          control={control}
          name="technicalDescription"
          label="Technical description"
          help="Recording type, montage and channels, video, artifacts, technical interventions"
          multiline
          minRows={2}
          fullWidth
        />
        <Section title="Background">
          <Grid container spacing={2}>
            {backgroundSelects.map((select) => (
              <Grid key={select.key} size={{ xs: 12, sm: 6, md: 4 }}>
                <FormSelectField
                  control={control}
                  name={`background.${select.key}`}
                  label={select.label}
                  fullWidth
                  emptyLabel="Not stated"
                  options={optionsOf(
                    Object.keys(select.options),
                    (value) => (select.options as Record<string, string>)[value] ?? value,
                  )}
                />
              </Grid>
            ))}
            <Grid size={{ xs: 12, sm: 6, md: 4 }}>
              <FormTextField
                control={control}
                name="background.pdrHz"
                label="Posterior dominant rhythm (Hz)"
                help="Blank when absent"
                fullWidth
                slotProps={{ htmlInput: { inputMode: "decimal" } }}
              />
            </Grid>
            <Grid size={12}>
              <FormTextField control={control} name="background.notes" label="Background notes" multiline fullWidth />
            </Grid>
          </Grid>
        </Section>
        <Section title="Findings">
          <FindingsEditor form={form} />
        </Section>
        <Section title="Seizures">
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, md: 8 }}>
              <FormSelectField
                control={control}
                name="seizures.classification"
                label="Seizure classification"
                fullWidth
                help={<SeizureCriteria form={form} />}
                options={optionsOf(
                  seizureClassifications,
                  (value) => seizureClassificationLabels[value as keyof typeof seizureClassificationLabels],
                )}
              />
            </Grid>
            <Grid size={{ xs: 12, md: 4 }}>
              <FormTextField
                control={control}
                name="seizures.count"
                label="Seizure count"
                help="Blank if not counted"
                fullWidth
                slotProps={{ htmlInput: { inputMode: "numeric" } }}
              />
            </Grid>
            <Grid size={12}>
              <FormTextField
                control={control}
                name="seizures.description"
                label="Seizure description"
                multiline
                fullWidth
              />
            </Grid>
          </Grid>
        </Section>
        <FormTextField
          control={control}
          name="impression"
          label="Impression"
          help="Normal or abnormal, and the degree of abnormality"
          multiline
          minRows={2}
          fullWidth
        />
        <FormTextField
          control={control}
          name="clinicalCorrelation"
          label="Clinical correlation"
          multiline
          minRows={2}
          fullWidth
        />
      </Stack>
    </RecordEditorForm>
  );
}
