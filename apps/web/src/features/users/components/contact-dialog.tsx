import Alert from "@mui/material/Alert";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import Stack from "@mui/material/Stack";
import { type User, userContactRequestSchema } from "@vigil/contract";
import { useId, useState } from "react";
import { Dialog } from "../../../components/feedback/dialog";
import { DialogFormActions } from "../../../components/forms/form-actions";
import { FormTextField } from "../../../components/forms/form-text-field";
import { showServerErrors, useContractForm } from "../../../components/forms/use-contract-form";
import { useSetUserContact } from "../api/set-user-contact";
import { currentUserOf, errorBodyOf, fieldErrorsOf } from "../server-errors";

type Values = { email: string; phoneNumber: string };

const valuesOf = (user: User): Values => ({ email: user.email, phoneNumber: user.phoneNumber ?? "" });

/** The request as the contract wants it: an empty phone removes it. */
function requestOf(values: Values) {
  return { email: values.email, phoneNumber: values.phoneNumber.trim() ? values.phoneNumber : null };
}

/**
 * An administrator changes a user's email or phone number. A changed value stays unverified until the user
 * confirms a code sent to it (sign-in asks them to); removing the phone number turns SMS codes off. The save
 * carries the version the administrator saw; on 412 the dialog shows the current values.
 */
export function ContactDialog({
  user: initialUser,
  onClose,
  onSaved,
}: {
  user: User;
  onClose: () => void;
  onSaved: (user: User) => void;
}) {
  const titleId = useId();
  const [user, setUser] = useState(initialUser);
  const save = useSetUserContact();
  const form = useContractForm({
    schema: userContactRequestSchema,
    defaultValues: valuesOf(initialUser),
    toInput: requestOf,
  });
  const failure = errorBodyOf(save.error);
  const generalError = failure && Object.keys(fieldErrorsOf(failure)).length === 0 ? failure : null;

  const submit = form.handleSubmit((contact) =>
    save.mutate(
      { user, contact },
      {
        onSuccess: onSaved,
        onError: (error) => {
          const body = errorBodyOf(error);
          const current = currentUserOf(error);
          if (body?.status === 412 && current) {
            setUser(current);
            form.reset(valuesOf(current));
            return;
          }
          showServerErrors(form.setError, fieldErrorsOf(body));
        },
      },
    ),
  );

  return (
    <Dialog open onClose={save.isPending ? undefined : onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>Contact details of {user.username}</DialogTitle>
      <form onSubmit={submit} noValidate>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            A changed address is not verified until {user.name} types the code sent to it; sign-in asks them to. Until
            then no password-reset or sign-in codes go to it.
          </DialogContentText>
          <Stack spacing={1}>
            <FormTextField
              control={form.control}
              name="email"
              label="Email"
              type="email"
              required
              fullWidth
              autoComplete="off"
              help={user.emailVerified ? "Verified" : "Not verified yet"}
            />
            <FormTextField
              control={form.control}
              name="phoneNumber"
              label="Phone (optional)"
              type="tel"
              fullWidth
              autoComplete="off"
              help={
                user.phoneNumber
                  ? `${user.phoneNumberVerified ? "Verified" : "Not verified yet"}; leave empty to remove it (SMS codes go off)`
                  : "International form, e.g. +15555550100"
              }
            />
          </Stack>
          {generalError ? (
            <Alert severity={generalError.status === 412 ? "warning" : "error"} sx={{ mt: 2 }}>
              {generalError.message}
              {generalError.status === 412 ? " These are the details as they are now. Make your change again." : null}
            </Alert>
          ) : null}
        </DialogContent>
        <DialogFormActions
          submitLabel="Save contact details"
          pending={save.isPending}
          disabled={!form.formState.isDirty}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}
