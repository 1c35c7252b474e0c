import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Stack from "@mui/material/Stack";
import { type User, userProfessionalRequestSchema } from "@vigil/contract";
import { useState } from "react";
import { useSetUserProfessional } from "../../api/set-user-professional";
import { apiErrorOf, currentFromDetails, serverFieldErrors } from "../forms/field-messages";
import { FormTextField } from "../forms/form-text-field";
import { showServerErrors, useContractForm } from "../forms/use-contract-form";

type Values = { familyName: string; givenNames: string; npi: string; credentials: string; boardCertifications: string };

const valuesOf = (user: User): Values => ({
  familyName: user.professional.familyName ?? "",
  givenNames: user.professional.givenNames.join(" "),
  npi: user.professional.npi ?? "",
  credentials: user.professional.credentials ?? "",
  boardCertifications: user.professional.boardCertifications.join("\n"),
});

const orNull = (text: string) => (text.trim() ? text.trim() : null);
const lines = (text: string, separator: RegExp) =>
  text
    .split(separator)
    .map((part) => part.trim())
    .filter(Boolean);

/** The request as the contract wants it: empty text clears a field; given names by spaces, certifications by line. */
function requestOf(values: Values) {
  return {
    familyName: orNull(values.familyName),
    givenNames: lines(values.givenNames, /\s+/),
    npi: orNull(values.npi),
    credentials: orNull(values.credentials),
    boardCertifications: lines(values.boardCertifications, /\n/),
  };
}

/**
 * A user's professional identity, as printed under the signature of every report they sign from now on (reports
 * already signed keep what they printed) and sent to hospitals as a FHIR Practitioner: the name in parts, the NPI,
 * credentials and board certifications. One form for the users admin screen and the account page. A save carries
 * the version the form was opened on; on 412 the form shows the current values.
 */
export function ProfessionalIdentityForm({
  user: initialUser,
  onSaved,
  onCancel,
}: {
  user: User;
  onSaved?: (user: User) => void;
  onCancel?: () => void;
}) {
  const [user, setUser] = useState(initialUser);
  const save = useSetUserProfessional();
  const form = useContractForm({
    schema: userProfessionalRequestSchema,
    defaultValues: valuesOf(initialUser),
    toInput: requestOf,
  });
  const failure = apiErrorOf(save.error);
  const generalError =
    save.error && Object.keys(serverFieldErrors(save.error)).length === 0
      ? (failure ?? { status: 0, message: String(save.error) })
      : null;

  const submit = form.handleSubmit((professional) =>
    save.mutate(
      { user, professional },
      {
        onSuccess: (saved) => {
          setUser(saved);
          form.reset(valuesOf(saved));
          onSaved?.(saved);
        },
        onError: (error) => {
          const current = currentFromDetails(error) as User | undefined;
          if (apiErrorOf(error)?.status === 412 && current?.professional) {
            setUser(current);
            form.reset(valuesOf(current));
            return;
          }
          showServerErrors(form.setError, serverFieldErrors(error));
        },
      },
    ),
  );

  return (
    <form onSubmit={submit} noValidate aria-label={`Professional details of ${user.username}`}>
      <Stack spacing={1}>
        <Stack direction={{ xs: "column", sm: "row" }} spacing={1}>
          <FormTextField
            control={form.control}
            name="givenNames"
            label="Given names"
            fullWidth
            autoComplete="off"
            help="As printed, separated by spaces"
          />
          <FormTextField control={form.control} name="familyName" label="Family name" fullWidth autoComplete="off" />
        </Stack>
        <Stack direction={{ xs: "column", sm: "row" }} spacing={1}>
          <FormTextField
            control={form.control}
            name="credentials"
            label="Credentials"
            fullWidth
            autoComplete="off"
            help='Printed after the name under a signature, e.g. "MD, PhD"'
          />
          <FormTextField
            control={form.control}
            name="npi"
            label="NPI"
            fullWidth
            autoComplete="off"
            slotProps={{ htmlInput: { inputMode: "numeric", maxLength: 10 } }}
            help="The 10-digit US National Provider Identifier"
          />
        </Stack>
        <FormTextField
          control={form.control}
          name="boardCertifications"
          label="Board certifications"
          fullWidth
          multiline
          minRows={2}
          autoComplete="off"
          help="One per line"
        />
      </Stack>
      {generalError ? (
        <Alert severity={generalError.status === 412 ? "warning" : "error"} sx={{ mt: 2 }}>
          {generalError.message}
          {generalError.status === 412 ? " These are the details as they are now. Make your change again." : null}
        </Alert>
      ) : null}
      {save.isSuccess && !form.formState.isDirty ? (
        <Alert severity="success" sx={{ mt: 2 }}>
          Saved. Reports signed from now on print these details; reports already signed do not change.
        </Alert>
      ) : null}
      <Stack direction="row" spacing={1} sx={{ mt: 2, justifyContent: "flex-end" }}>
        {onCancel ? (
          <Button onClick={onCancel} disabled={save.isPending}>
            Cancel
          </Button>
        ) : null}
        <Button
          type="submit"
          variant="contained"
          disabled={save.isPending || !form.formState.isDirty}
          startIcon={save.isPending ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : null}
        >
          Save professional details
        </Button>
      </Stack>
    </form>
  );
}
