import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { type AccessGroup, type CreatedUser, createUserRequestSchema } from "@vigil/contract";
import { useId } from "react";
import { Dialog } from "../../../components/feedback/dialog";
import { DialogFormActions } from "../../../components/forms/form-actions";
import { FormTextField } from "../../../components/forms/form-text-field";
import { showServerErrors, useContractForm } from "../../../components/forms/use-contract-form";
import { useCreateUser } from "../api/create-user";
import { errorBodyOf, fieldErrorsOf } from "../server-errors";
import { AccessGroupCheckboxes } from "./access-group-checkboxes";

type Values = { username: string; email: string; name: string; phoneNumber: string; groups: AccessGroup[] };

const emptyValues: Values = { username: "", email: "", name: "", phoneNumber: "", groups: [] };

/** The request as the contract wants it: an empty phone means "none". */
function requestOf(values: Values) {
  const { phoneNumber, ...rest } = values;
  return phoneNumber.trim() ? { ...rest, phoneNumber: phoneNumber.trim() } : rest;
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
  const create = useCreateUser();
  // The contract's own rules, checked as the administrator types; the server checks the same again.
  const form = useContractForm({
    schema: createUserRequestSchema,
    defaultValues: emptyValues,
    toInput: requestOf,
  });
  const { control } = form;

  const failure = errorBodyOf(create.error);

  const close = () => {
    if (create.isPending) return;
    form.reset(emptyValues);
    create.reset();
    onClose();
  };

  const submit = form.handleSubmit((request) =>
    create.mutate(request, {
      // The form is done with: the dialog shows the new user now, and no unsaved edits hold the new-version banner.
      onSuccess: () => form.reset(emptyValues),
      onError: (error) => showServerErrors(form.setError, fieldErrorsOf(errorBodyOf(error))),
    }),
  );

  // Field problems show beside their fields; anything else (mail down, a server fault) above the buttons.
  const generalError = failure && Object.keys(fieldErrorsOf(failure)).length === 0 ? failure.message : null;

  const textField = (
    name: Exclude<keyof Values, "groups">,
    label: string,
    extra: { helper?: string; type?: string } = {},
  ) => (
    <FormTextField
      control={control}
      name={name}
      label={label}
      help={extra.helper ?? " "}
      required={name !== "phoneNumber"}
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
              <AccessGroupCheckboxes
                control={control}
                legend="Access groups"
                help="Without a group the user can sign in but sees nothing."
              />
            </Stack>
            {generalError ? (
              <Alert severity="error" sx={{ mt: 2 }}>
                {generalError}
              </Alert>
            ) : null}
          </DialogContent>
          <DialogFormActions submitLabel="Create user" pending={create.isPending} onCancel={close} />
        </form>
      )}
    </Dialog>
  );
}
