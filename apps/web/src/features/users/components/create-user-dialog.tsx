import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormGroup from "@mui/material/FormGroup";
import FormHelperText from "@mui/material/FormHelperText";
import FormLabel from "@mui/material/FormLabel";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { type AccessGroup, accessGroups, type CreatedUser, createUserRequestSchema } from "@vigil/contract";
import { type FormEvent, useId, useMemo, useState } from "react";
import { useUnsavedChanges } from "../../../lib/unsaved-changes";
import { useCreateUser } from "../api/create-user";
import { errorBodyOf, fieldErrorsOf } from "../server-errors";
import { groupLabels } from "../user-labels";

type Field = "username" | "email" | "name" | "phoneNumber" | "groups";
type Values = { username: string; email: string; name: string; phoneNumber: string; groups: AccessGroup[] };

const emptyValues: Values = { username: "", email: "", name: "", phoneNumber: "", groups: [] };

/** The request as the contract wants it: an empty phone means "none". */
function requestOf(values: Values) {
  const { phoneNumber, ...rest } = values;
  return phoneNumber.trim() ? { ...rest, phoneNumber: phoneNumber.trim() } : rest;
}

/** The contract's own rules, checked as the administrator types; the server checks the same again. */
function validate(values: Values): Partial<Record<Field, string>> {
  const parsed = createUserRequestSchema.safeParse(requestOf(values));
  if (parsed.success) return {};
  const errors: Partial<Record<Field, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as Field;
    errors[field] ??= issue.message;
  }
  return errors;
}

function Created({ created, onClose }: { created: CreatedUser; onClose: () => void }) {
  return (
    <>
      <DialogContent>
        <Alert severity="success" role="status">
          {created.user.username} was created.
        </Alert>
        <Typography sx={{ mt: 2 }}>
          A temporary password was emailed to <strong>{created.delivery.destination}</strong>. It expires in 7 days; at
          first sign-in {created.user.name} chooses their own password.
        </Typography>
        {created.delivery.transport === "outbox" ? (
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            No mail server is configured, so the message waits in the outbox (server log and GET /api/outbox).
          </Typography>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          Done
        </Button>
      </DialogActions>
    </>
  );
}

/** "New user": who they are and their groups; the server makes and emails the temporary password. */
export function CreateUserDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const titleId = useId();
  const [values, setValues] = useState<Values>(emptyValues);
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  // Server messages per field, kept until that field changes.
  const [serverErrors, setServerErrors] = useState<Partial<Record<Field, string>>>({});
  const create = useCreateUser();
  const errors = useMemo(() => validate(values), [values]);
  const dirty = JSON.stringify(values) !== JSON.stringify(emptyValues) && !create.isSuccess;
  useUnsavedChanges(open && dirty);

  const failure = errorBodyOf(create.error);
  const shownError = (field: Field) => serverErrors[field] ?? (touched[field] || submitted ? errors[field] : undefined);

  const change = <F extends Field>(field: F, value: Values[F]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setTouched((current) => ({ ...current, [field]: true }));
    setServerErrors(({ [field]: _cleared, ...rest }) => rest);
  };

  const close = () => {
    if (create.isPending) return;
    setValues(emptyValues);
    setTouched({});
    setSubmitted(false);
    setServerErrors({});
    create.reset();
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (Object.keys(errors).length > 0) return;
    create.mutate(createUserRequestSchema.parse(requestOf(values)), {
      onError: (error) => setServerErrors(fieldErrorsOf(errorBodyOf(error))),
    });
  };

  // Field problems show beside their fields; anything else (mail down, a server fault) above the buttons.
  const generalError = failure && Object.keys(fieldErrorsOf(failure)).length === 0 ? failure.message : null;

  const textField = (
    field: Exclude<Field, "groups">,
    label: string,
    extra: { helper?: string; type?: string } = {},
  ) => (
    <TextField
      label={label}
      value={values[field]}
      onChange={(event) => change(field, event.target.value)}
      onBlur={() => setTouched((current) => ({ ...current, [field]: true }))}
      error={Boolean(shownError(field))}
      helperText={shownError(field) ?? extra.helper ?? " "}
      required={field !== "phoneNumber"}
      type={extra.type ?? "text"}
      fullWidth
      autoComplete="off"
    />
  );

  return (
    <Dialog open={open} onClose={close} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>New user</DialogTitle>
      {create.data ? (
        <Created created={create.data} onClose={close} />
      ) : (
        <form onSubmit={submit} noValidate>
          <DialogContent>
            <Stack spacing={1}>
              {textField("username", "Username", { helper: "Used to sign in; cannot be changed later" })}
              {textField("name", "Full name")}
              {textField("email", "Email", { type: "email", helper: "The temporary password is sent here" })}
              {textField("phoneNumber", "Phone (optional)", {
                type: "tel",
                helper: "International form, e.g. +15555550100; needed for SMS MFA",
              })}
              <FormControl component="fieldset" error={Boolean(shownError("groups"))}>
                <FormLabel component="legend">Access groups</FormLabel>
                <FormGroup>
                  {accessGroups.map((group) => (
                    <FormControlLabel
                      key={group}
                      control={
                        <Checkbox
                          checked={values.groups.includes(group)}
                          onChange={(event) =>
                            change(
                              "groups",
                              event.target.checked
                                ? [...values.groups, group]
                                : values.groups.filter((other) => other !== group),
                            )
                          }
                        />
                      }
                      label={`${groupLabels[group].label} — ${groupLabels[group].description}`}
                    />
                  ))}
                </FormGroup>
                <FormHelperText>
                  {shownError("groups") ?? "Without a group the user can sign in but sees nothing."}
                </FormHelperText>
              </FormControl>
            </Stack>
            {generalError ? (
              <Alert severity="error" sx={{ mt: 2 }}>
                {generalError}
              </Alert>
            ) : null}
          </DialogContent>
          <DialogActions>
            <Button onClick={close} disabled={create.isPending}>
              Cancel
            </Button>
            <Button
              type="submit"
              variant="contained"
              disabled={create.isPending}
              startIcon={create.isPending ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : null}
            >
              Create user
            </Button>
          </DialogActions>
        </form>
      )}
    </Dialog>
  );
}
