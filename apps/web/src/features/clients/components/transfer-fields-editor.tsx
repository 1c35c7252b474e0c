import Add from "@mui/icons-material/Add";
import ArrowDownward from "@mui/icons-material/ArrowDownward";
import ArrowUpward from "@mui/icons-material/ArrowUpward";
import Delete from "@mui/icons-material/Delete";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Grid from "@mui/material/Grid";
import IconButton from "@mui/material/IconButton";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import type { createProtocolRevisionSchema } from "@vigil/contract";
import { useFieldArray, useFormState, useWatch } from "react-hook-form";
import { CheckboxField } from "../../../components/forms/checkbox-field";
import { labelledMessage } from "../../../components/forms/field-messages";
import { FormTextField } from "../../../components/forms/form-text-field";
import { FormSelectField, optionsOf } from "../../../components/forms/select-field";
import type { ContractForm } from "../../../components/forms/use-contract-form";
import {
  type ProtocolFormValues,
  type TransferFieldValues,
  transferFieldTypeLabels,
  transferFieldTypes,
} from "../protocol-model";

export type ProtocolForm = ContractForm<ProtocolFormValues, typeof createProtocolRevisionSchema>;

const listPath = "transferForm.fields";

function nextKey(fields: readonly TransferFieldValues[]): string {
  const taken = new Set(fields.map((field) => field.key));
  let index = fields.length + 1;
  while (taken.has(`field${index}`)) index++;
  return `field${index}`;
}

/** The transfer form's fields: add, edit, reorder and remove; each input validated like the rest of the form. */
export function TransferFieldsEditor({ form }: { form: ProtocolForm }) {
  const { control } = form;
  const { fields: items, append, move, remove } = useFieldArray({ control, name: listPath });
  // What the inputs hold now (`items` keeps the values each field was added with), for legends and button names.
  const fields = useWatch({ control, name: listPath });
  const { errors } = useFormState({ control, name: listPath });
  // A problem with the list as a whole ("field keys must be unique") is the field array's root error.
  const listError = errors.transferForm?.fields?.root?.message ?? errors.transferForm?.fields?.message;

  return (
    <Stack spacing={2}>
      {listError ? (
        <Alert severity="error" role="alert">
          {labelledMessage("Transfer form fields:", listError)}
        </Alert>
      ) : null}
      {items.length === 0 ? (
        <Typography color="text.secondary">The transfer form asks for no fields yet.</Typography>
      ) : null}
      {items.map((item, index) => {
        const field = fields[index] ?? item;
        const base = `${listPath}.${index}` as const;
        const number = index + 1;
        const name = field.label || field.key || `field ${number}`;
        return (
          <Paper key={item.id} variant="outlined" component="fieldset" sx={{ p: 2, m: 0 }}>
            <Stack direction="row" sx={{ alignItems: "center", mb: 1 }}>
              <Typography component="legend" sx={{ fontWeight: 600, flexGrow: 1, float: "left" }}>
                Field {number}: {field.label || "untitled"}
              </Typography>
              <Tooltip title="Move up">
                <span>
                  <IconButton
                    aria-label={`Move ${name} up`}
                    disabled={index === 0}
                    onClick={() => move(index, index - 1)}
                  >
                    <ArrowUpward />
                  </IconButton>
                </span>
              </Tooltip>
              <Tooltip title="Move down">
                <span>
                  <IconButton
                    aria-label={`Move ${name} down`}
                    disabled={index === items.length - 1}
                    onClick={() => move(index, index + 1)}
                  >
                    <ArrowDownward />
                  </IconButton>
                </span>
              </Tooltip>
              <Tooltip title="Remove field">
                <IconButton aria-label={`Remove ${name}`} onClick={() => remove(index)}>
                  <Delete />
                </IconButton>
              </Tooltip>
            </Stack>
            <Grid container spacing={2}>
              <Grid size={{ xs: 12, sm: 6 }}>
                <FormTextField
                  control={control}
                  name={`${base}.label`}
                  label={`Field ${number} label`}
                  required
                  fullWidth
                />
              </Grid>
              <Grid size={{ xs: 12, sm: 6 }}>
                <FormTextField
                  control={control}
                  name={`${base}.key`}
                  label={`Field ${number} key`}
                  required
                  help="camelCase, unique, e.g. patientName"
                  // Keys must differ from each other: the list's message is checked again with each key.
                  deps={[listPath]}
                  fullWidth
                />
              </Grid>
              <Grid size={{ xs: 12, sm: 6 }}>
                <FormSelectField
                  control={control}
                  name={`${base}.type`}
                  label={`Field ${number} type`}
                  fullWidth
                  options={optionsOf(transferFieldTypes, transferFieldTypeLabels)}
                />
              </Grid>
              <Grid size={{ xs: 12, sm: 6 }}>
                <CheckboxField control={control} name={`${base}.required`} label={`Field ${number} required`} />
              </Grid>
              {field.type === "select" ? (
                <Grid size={{ xs: 12 }}>
                  <FormTextField
                    control={control}
                    name={`${base}.options`}
                    label={`Field ${number} options`}
                    help="One option per line"
                    fullWidth
                    multiline
                    minRows={2}
                  />
                </Grid>
              ) : null}
              <Grid size={{ xs: 12 }}>
                <FormTextField control={control} name={`${base}.help`} label={`Field ${number} help`} fullWidth />
              </Grid>
            </Grid>
          </Paper>
        );
      })}
      <div>
        <Button
          startIcon={<Add />}
          variant="outlined"
          onClick={() =>
            // Focus stays on the button, so several fields can be added in a row.
            append(
              { key: nextKey(fields), label: "", type: "text", required: false, options: "", help: "" },
              { shouldFocus: false },
            )
          }
        >
          Add field
        </Button>
      </div>
    </Stack>
  );
}
