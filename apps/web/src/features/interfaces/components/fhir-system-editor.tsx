import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { type Client, createSmartClientSchema, type SmartClient, updateSmartClientSchema } from "@vigil/contract";
import { useState } from "react";
import { type Resolver, useForm, useWatch } from "react-hook-form";
import { CheckboxField } from "../../../components/forms/checkbox-field";
import { apiErrorOf, type FieldErrors, serverFieldErrors } from "../../../components/forms/field-messages";
import { FormActions } from "../../../components/forms/form-actions";
import { FormTextField } from "../../../components/forms/form-text-field";
import { FormSelectField, labelledOptions } from "../../../components/forms/select-field";
import { showServerErrors } from "../../../components/forms/use-contract-form";
import { useUnsavedChanges } from "../../../lib/unsaved-changes";
import { useSaveSmartClient } from "../api/smart-clients";
import {
  formFieldErrors,
  keySourceLabels,
  type SmartClientFormValues,
  smartClientFormValues,
  toSmartClientBody,
} from "../smart-client-model";

/** What the form sends: a new registration (with the id the hospital chose, if any) or a change on `baseVersion`. */
function bodyOf(values: SmartClientFormValues, system: SmartClient | null) {
  const body = toSmartClientBody(values);
  if (system) return { ...body, baseVersion: system.version };
  const systemClientId = values.systemClientId.trim();
  return systemClientId ? { ...body, systemClientId } : body;
}

/** The contract's schema, with each message placed under the form field that holds the value. */
function resolverFor(system: SmartClient | null): Resolver<SmartClientFormValues> {
  return async (values) => {
    const parsed = (system ? updateSmartClientSchema : createSmartClientSchema).safeParse(bodyOf(values, system));
    if (parsed.success) return { values, errors: {} };
    const flat: FieldErrors = {};
    for (const issue of parsed.error.issues) {
      const path = issue.path.join(".");
      if (!(path in flat)) flat[path] = issue.message;
    }
    if (values.keySource === "jwks" && typeof toSmartClientBody(values).jwks === "string") {
      flat.jwks = 'is not valid JSON: paste the JWKS document, { "keys": [ … ] }';
    }
    const errors = Object.fromEntries(
      Object.entries(formFieldErrors(flat, values)).map(([field, message]) => [field, { type: "validation", message }]),
    );
    return { values: {}, errors };
  };
}

export type FhirSystemEditorProps = { client: Client; system: SmartClient | null; onDone: () => void };

/**
 * Registers a hospital's system for SMART Backend Services, or changes one: its name, client id (new ones only;
 * empty lets Vigil make one), where its public keys are, the scopes it may be granted, and whether it may connect.
 * Messages from the contract's schema and from the server (a private key pasted, a client id taken) appear under
 * their fields.
 */
export function FhirSystemEditor({ client, system, onDone }: FhirSystemEditorProps) {
  const save = useSaveSmartClient();
  const [resolver] = useState(() => resolverFor(system));
  const form = useForm<SmartClientFormValues>({ defaultValues: smartClientFormValues(system), resolver });
  const { control } = form;
  useUnsavedChanges(form.formState.isDirty);
  const keySource = useWatch({ control, name: "keySource" });
  const failure = apiErrorOf(save.error);

  const submit = form.handleSubmit((values) => {
    const input = bodyOf(values, system);
    const variables = system
      ? { clientId: client.id, systemId: system.id, input: input as never }
      : { clientId: client.id, input: input as never };
    save.mutate(variables, {
      onSuccess: () => {
        form.reset(values);
        onDone();
      },
      onError: (error) => {
        if (apiErrorOf(error)?.status === 400) {
          showServerErrors(form.setError, formFieldErrors(serverFieldErrors(error), values));
        }
      },
    });
  });

  const title = system ? `Change ${system.name}` : "Register a hospital system";
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography variant="h6" component="h2">
        {title}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        The hospital's system gets tokens from Vigil's token endpoint by signing an assertion with its private key
        (SMART Backend Services). Vigil keeps only the public keys.
      </Typography>
      <Box component="form" noValidate onSubmit={submit} aria-label={title}>
        {failure && failure.status !== 400 ? (
          <Alert severity="error" role="alert" sx={{ mb: 2 }}>
            {failure.message}
          </Alert>
        ) : null}
        {failure?.status === 400 ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            The server did not accept the registration: check the fields marked below.
          </Alert>
        ) : null}
        <Stack spacing={2}>
          <FormTextField control={control} name="name" label="Name" help="e.g. Epic at St. Mary's" required fullWidth />
          {system ? null : (
            <FormTextField
              control={control}
              name="systemClientId"
              label="Client id (optional)"
              help="The id the hospital's system sends as iss and sub. Leave empty and Vigil makes one to give them."
              fullWidth
            />
          )}
          <FormSelectField
            control={control}
            name="keySource"
            label="Public keys"
            options={labelledOptions(keySourceLabels)}
            fullWidth
          />
          {keySource === "url" ? (
            <FormTextField
              control={control}
              name="jwksUrl"
              label="JWKS URL"
              help="https:// address where the hospital publishes its public keys (RS384 or ES384)."
              required
              fullWidth
            />
          ) : (
            <FormTextField
              control={control}
              name="jwksText"
              label="JWKS"
              help='The public keys as a JSON Web Key Set, { "keys": [ … ] }: RSA keys for RS384 or EC P-384 keys for ES384, never a private key ("d").'
              required
              multiline
              minRows={6}
              fullWidth
              slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: "monospace" } } }}
            />
          )}
          <FormTextField
            control={control}
            name="scopesText"
            label="Allowed scopes"
            help="SMART v2 system scopes, one per line, e.g. system/DiagnosticReport.rs. A token gets those it asks for among these."
            required
            multiline
            minRows={3}
            fullWidth
            slotProps={{ htmlInput: { spellCheck: false } }}
          />
          <CheckboxField
            control={control}
            name="enabled"
            label="May connect"
            help="Off: the system gets no token, and its tokens stop working at once."
          />
        </Stack>
        <FormActions
          submitLabel={system ? "Save changes" : "Register"}
          pending={save.isPending}
          spinner
          onCancel={onDone}
        />
      </Box>
    </Paper>
  );
}
