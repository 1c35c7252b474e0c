import Edit from "@mui/icons-material/Edit";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { type Client, type FhirPushSettings, fhirPushSettingsInputSchema } from "@vigil/contract";
import { useState } from "react";
import { type Resolver, useForm } from "react-hook-form";
import { QueryError } from "../../../components/feedback/query-error";
import { CheckboxField } from "../../../components/forms/checkbox-field";
import { apiErrorOf, serverFieldErrors } from "../../../components/forms/field-messages";
import { FormActions } from "../../../components/forms/form-actions";
import { FormTextField } from "../../../components/forms/form-text-field";
import { showServerErrors } from "../../../components/forms/use-contract-form";
import { useUnsavedChanges } from "../../../lib/unsaved-changes";
import { useFhirPushSettings, useSaveFhirPushSettings } from "../api/fhir-push-settings";

type FormValues = { enabled: boolean; baseUrl: string; tokenUrl: string; systemClientId: string; scopesText: string };

const defaultScopes = [
  "system/DiagnosticReport.cu",
  "system/DocumentReference.cu",
  "system/Binary.c",
  "system/Patient.rs",
];

function valuesOf(settings: FhirPushSettings | null): FormValues {
  return {
    enabled: settings?.enabled ?? true,
    baseUrl: settings?.baseUrl ?? "",
    tokenUrl: settings?.tokenUrl ?? "",
    systemClientId: settings?.systemClientId ?? "",
    scopesText: (settings?.scopes ?? defaultScopes).join("\n"),
  };
}

function bodyOf(values: FormValues, settings: FhirPushSettings | null) {
  return {
    baseVersion: settings?.version ?? null,
    enabled: values.enabled,
    baseUrl: values.baseUrl.trim(),
    tokenUrl: values.tokenUrl.trim() === "" ? null : values.tokenUrl.trim(),
    systemClientId: values.systemClientId.trim(),
    scopes: values.scopesText
      .split(/\s+/)
      .map((scope) => scope.trim())
      .filter((scope) => scope !== ""),
  };
}

/** The form field a message of the contract (or the server) belongs under: `scopes.1` is the scopes' text. */
function fieldOf(path: string): keyof FormValues {
  const [head] = path.replace(/^body\./, "").split(".");
  return head === "scopes" ? "scopesText" : ((head ?? "baseUrl") as keyof FormValues);
}

function resolverFor(settings: FhirPushSettings | null): Resolver<FormValues> {
  return async (values) => {
    const parsed = fhirPushSettingsInputSchema.safeParse(bodyOf(values, settings));
    if (parsed.success) return { values, errors: {} };
    const errors: Record<string, { type: string; message: string }> = {};
    for (const issue of parsed.error.issues) {
      const field = fieldOf(issue.path.join("."));
      errors[field] ??= { type: "validation", message: issue.message };
    }
    return { values: {}, errors };
  };
}

function PushEditor(props: { client: Client; settings: FhirPushSettings | null; onDone: () => void }) {
  const { client, settings, onDone } = props;
  const save = useSaveFhirPushSettings();
  const [resolver] = useState(() => resolverFor(settings));
  const form = useForm<FormValues>({ defaultValues: valuesOf(settings), resolver });
  useUnsavedChanges(form.formState.isDirty);
  const failure = apiErrorOf(save.error);
  const submit = form.handleSubmit((values) =>
    save.mutate(
      { clientId: client.id, input: bodyOf(values, settings) },
      {
        onSuccess: () => {
          form.reset(values);
          onDone();
        },
        onError: (error) => {
          if (apiErrorOf(error)?.status !== 400) return;
          const fields = Object.entries(serverFieldErrors(error)).map(([path, message]) => [fieldOf(path), message]);
          showServerErrors(form.setError, Object.fromEntries(fields));
        },
      },
    ),
  );
  const { control } = form;
  return (
    <Box component="form" noValidate onSubmit={submit} aria-label="FHIR push settings">
      {failure && failure.status !== 400 ? (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {failure.message}
        </Alert>
      ) : null}
      <Stack spacing={2}>
        <FormTextField
          control={control}
          name="baseUrl"
          label="Hospital FHIR base URL"
          help="https:// address of the hospital's FHIR R4 server; the transaction Bundle is posted there."
          required
          fullWidth
        />
        <FormTextField
          control={control}
          name="tokenUrl"
          label="Token endpoint (optional)"
          help="Empty: read from the base URL's /.well-known/smart-configuration at each push."
          fullWidth
        />
        <FormTextField
          control={control}
          name="systemClientId"
          label="Vigil's client id there"
          help="The client id the hospital gave Vigil; Vigil sends it as iss and sub of its signed assertion."
          required
          fullWidth
        />
        <FormTextField
          control={control}
          name="scopesText"
          label="Scopes to request"
          help="System scopes, one per line, e.g. system/DiagnosticReport.cu."
          required
          multiline
          minRows={3}
          fullWidth
          slotProps={{ htmlInput: { spellCheck: false } }}
        />
        <CheckboxField
          control={control}
          name="enabled"
          label="Push signed reports"
          help="Each signed report and addendum is sent when it is signed; off: none is sent."
        />
      </Stack>
      <FormActions submitLabel="Save push settings" pending={save.isPending} spinner onCancel={onDone} />
    </Box>
  );
}

/**
 * Pushing the client's signed reports to the hospital's own FHIR server (SMART Backend Services towards their token
 * endpoint, Vigil signing with the keys at its JWKS URL). Administrators change it; coordinators read.
 */
export function FhirPushSettingsSection({ client, canManage }: { client: Client; canManage: boolean }) {
  const query = useFhirPushSettings(client.id);
  const [editing, setEditing] = useState(false);
  const settings = query.data?.settings ?? null;
  return (
    <Stack component="section" spacing={2} aria-labelledby="fhir-push-heading">
      <Typography id="fhir-push-heading" variant="h6" component="h2">
        FHIR push
      </Typography>
      {query.isPending ? <Typography>Loading the FHIR push settings…</Typography> : null}
      {query.isError ? (
        <QueryError what="The FHIR push settings" error={query.error} onRetry={() => void query.refetch()} />
      ) : null}
      {query.data ? (
        <Typography color="text.secondary">
          Register Vigil at the hospital with its public keys at {query.data.jwksUrl} (ES384).
        </Typography>
      ) : null}
      {query.data && editing ? (
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
          <PushEditor client={client} settings={settings} onDone={() => setEditing(false)} />
        </Paper>
      ) : null}
      {query.data && !editing ? (
        <Box aria-label="FHIR push" role="group">
          {settings ? (
            <Typography>
              {settings.enabled ? "On" : "Off"}: to {settings.baseUrl} as {settings.systemClientId}, token from{" "}
              {settings.tokenUrl ?? "the server's SMART configuration"}; scopes {settings.scopes.join(" ")}.
            </Typography>
          ) : (
            <Typography color="text.secondary">
              Signed reports are not pushed to a FHIR server for this client.
            </Typography>
          )}
          {canManage ? (
            <Button sx={{ mt: 1 }} variant="outlined" startIcon={<Edit />} onClick={() => setEditing(true)}>
              {settings ? "Change FHIR push" : "Set up FHIR push"}
            </Button>
          ) : null}
        </Box>
      ) : null}
    </Stack>
  );
}
