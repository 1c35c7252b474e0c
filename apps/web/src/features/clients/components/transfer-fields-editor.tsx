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
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import type { createProtocolRevisionSchema } from "@vigil/contract";
import { CheckboxField } from "../../../components/forms/checkbox-field";
import { labelledMessage } from "../../../components/forms/field-messages";
import type { ZodForm } from "../../../components/forms/use-zod-form";
import {
  type ProtocolFormValues,
  type TransferFieldValues,
  transferFieldTypeLabels,
  transferFieldTypes,
} from "../protocol-model";

export type ProtocolForm = ZodForm<ProtocolFormValues, typeof createProtocolRevisionSchema>;

const listPath = "transferForm.fields";

function nextKey(fields: readonly TransferFieldValues[]): string {
  const taken = new Set(fields.map((field) => field.key));
  let index = fields.length + 1;
  while (taken.has(`field${index}`)) index++;
  return `field${index}`;
}

/** The transfer form's fields: add, edit, reorder and remove; each input validated like the rest of the form. */
export function TransferFieldsEditor({ form }: { form: ProtocolForm }) {
  const fields = form.values.transferForm.fields;
  const replaceList = (next: TransferFieldValues[]) => form.setValue(listPath, next, { touch: false });
  const move = (index: number, offset: number) => {
    const next = [...fields];
    const [moved] = next.splice(index, 1);
    if (moved) next.splice(index + offset, 0, moved);
    replaceList(next);
  };
  const listError = form.errorFor(listPath);

  return (
    <Stack spacing={2}>
      {listError ? (
        <Alert severity="error" role="alert">
          {labelledMessage("Transfer form fields:", listError)}
        </Alert>
      ) : null}
      {fields.length === 0 ? (
        <Typography color="text.secondary">The transfer form asks for no fields yet.</Typography>
      ) : null}
      {fields.map((field, index) => {
        const base = `${listPath}.${index}`;
        const number = index + 1;
        const name = field.label || field.key || `field ${number}`;
        return (
          <Paper
            // Keys change while typed, so the position is the only stable identity here.
            // biome-ignore lint/suspicious/noArrayIndexKey: fields are edited in place and reordered explicitly
            key={index}
            variant="outlined"
            component="fieldset"
            sx={{ p: 2, m: 0 }}
          >
            <Stack direction="row" sx={{ alignItems: "center", mb: 1 }}>
              <Typography component="legend" sx={{ fontWeight: 600, flexGrow: 1, float: "left" }}>
                Field {number}: {field.label || "untitled"}
              </Typography>
              <Tooltip title="Move up">
                <span>
                  <IconButton aria-label={`Move ${name} up`} disabled={index === 0} onClick={() => move(index, -1)}>
                    <ArrowUpward />
                  </IconButton>
                </span>
              </Tooltip>
              <Tooltip title="Move down">
                <span>
                  <IconButton
                    aria-label={`Move ${name} down`}
                    disabled={index === fields.length - 1}
                    onClick={() => move(index, 1)}
                  >
                    <ArrowDownward />
                  </IconButton>
                </span>
              </Tooltip>
              <Tooltip title="Remove field">
                <IconButton
                  aria-label={`Remove ${name}`}
                  onClick={() => replaceList(fields.filter((_field, position) => position !== index))}
                >
                  <Delete />
                </IconButton>
              </Tooltip>
            </Stack>
            <Grid container spacing={2}>
              <Grid size={{ xs: 12, sm: 6 }}>
                <TextField
                  {...form.textField(`${base}.label`, `Field ${number} label`, { required: true })}
                  fullWidth
                />
              </Grid>
              <Grid size={{ xs: 12, sm: 6 }}>
                <TextField
                  {...form.textField(`${base}.key`, `Field ${number} key`, {
                    required: true,
                    help: "camelCase, unique, e.g. patientName",
                  })}
                  fullWidth
                />
              </Grid>
              <Grid size={{ xs: 12, sm: 6 }}>
                <TextField
                  {...form.textField(`${base}.type`, `Field ${number} type`)}
                  select
                  fullWidth
                  slotProps={{ select: { native: true } }}
                >
                  {transferFieldTypes.map((type) => (
                    <option key={type} value={type}>
                      {transferFieldTypeLabels[type]}
                    </option>
                  ))}
                </TextField>
              </Grid>
              <Grid size={{ xs: 12, sm: 6 }}>
                <CheckboxField
                  id={`${form.formId}-${index}-required`}
                  label={`Field ${number} required`}
                  checked={field.required}
                  onChange={(checked) => form.setValue(`${base}.required`, checked)}
                  error={form.errorFor(`${base}.required`)}
                />
              </Grid>
              {field.type === "select" ? (
                <Grid size={{ xs: 12 }}>
                  <TextField
                    {...form.textField(`${base}.options`, `Field ${number} options`, { help: "One option per line" })}
                    fullWidth
                    multiline
                    minRows={2}
                  />
                </Grid>
              ) : null}
              <Grid size={{ xs: 12 }}>
                <TextField {...form.textField(`${base}.help`, `Field ${number} help`)} fullWidth />
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
            replaceList([
              ...fields,
              { key: nextKey(fields), label: "", type: "text", required: false, options: "", help: "" },
            ])
          }
        >
          Add field
        </Button>
      </div>
    </Stack>
  );
}
