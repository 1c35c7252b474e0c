import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Grid from "@mui/material/Grid";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import {
  type Client,
  createInterfaceProfileRevisionSchema,
  hl7Versions,
  type InterfaceProfileRevision,
  interfaceProfileRevisionSchema,
} from "@vigil/contract";
import { type ReactNode, useState } from "react";
import { type FieldPath, useWatch } from "react-hook-form";
import { CheckboxField } from "../../../components/forms/checkbox-field";
import { apiErrorOf, currentFromDetails } from "../../../components/forms/field-messages";
import { FormActions } from "../../../components/forms/form-actions";
import { FormTextField } from "../../../components/forms/form-text-field";
import { FormSelectField, labelledOptions, optionsOf } from "../../../components/forms/select-field";
import { applyServerError, useContractForm } from "../../../components/forms/use-contract-form";
import { useCreateInterfaceProfileRevision } from "../api/create-interface-profile-revision";
import {
  type ProfileFormValues,
  profileFormValues,
  resultStyleLabels,
  toProfileInput,
  visitNumberSourceLabels,
} from "../profile-model";
import { InterfaceProfileView, profileAuthorName } from "./interface-profile-view";

function Section({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
      <Typography component="legend" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
        {legend}
      </Typography>
      <Grid container spacing={2}>
        {children}
      </Grid>
    </Box>
  );
}

export type InterfaceProfileEditorProps = {
  client: Client;
  /** The revision the new one builds on (null for the client's first profile). */
  current: InterfaceProfileRevision | null;
  onDone: () => void;
};

/**
 * A new interface profile revision, prefilled from the current one and sent with `baseRevision`. The server's 400
 * messages appear under their fields; a 409 either names another client that owns the identity, or carries the
 * revision someone saved meanwhile, which is shown so the user can build on it with their edits kept.
 */
export function InterfaceProfileEditor({ client, current, onDone }: InterfaceProfileEditorProps) {
  const create = useCreateInterfaceProfileRevision();
  const form = useContractForm<ProfileFormValues, typeof createInterfaceProfileRevisionSchema>({
    schema: createInterfaceProfileRevisionSchema,
    defaultValues: profileFormValues(current),
    toInput: toProfileInput,
  });
  const { control } = form;
  const baseRevision = useWatch({ control, name: "baseRevision" });
  const tls = useWatch({ control, name: "destination.tls" });
  const [newer, setNewer] = useState<InterfaceProfileRevision | null>(null);
  const failure = apiErrorOf(create.error);

  const submit = form.handleSubmit((input) => {
    create.mutate(
      { clientId: client.id, input },
      {
        onSuccess: () => {
          form.reset(form.getValues());
          onDone();
        },
        onError: (error) => {
          const parsed = interfaceProfileRevisionSchema.safeParse(currentFromDetails(error));
          setNewer(parsed.success ? parsed.data : null);
          if (apiErrorOf(error)?.status === 400) applyServerError(form.setError, error);
        },
      },
    );
  });
  const buildOnNewer = (theirs: InterfaceProfileRevision) => {
    form.setValue("baseRevision", theirs.revision, { shouldDirty: true });
    setNewer(null);
    create.reset();
  };
  const text = (name: FieldPath<ProfileFormValues>, label: string, help?: string) => (
    <FormTextField control={control} name={name} label={label} help={help} required fullWidth />
  );

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography variant="h6" component="h2">
        New interface profile revision
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {baseRevision === null
          ? "The first interface profile of this client."
          : `Based on revision ${baseRevision}. Saving appends a revision; earlier ones stay in the history.`}
      </Typography>
      <Box component="form" noValidate onSubmit={submit} aria-label="New interface profile revision">
        {failure?.status === 409 && newer ? (
          <Box sx={{ mb: 2 }}>
            <Alert severity="warning" role="alert">
              <AlertTitle>Someone revised this profile first</AlertTitle>
              <Box component="p" sx={{ mt: 0 }}>
                {`Revision ${newer.revision} was saved by ${profileAuthorName(newer.author)} while you were editing. `}
                Nothing of yours was saved, and your edits are still in the form. It is shown below: check it, then save
                your edits on top of it.
              </Box>
              <Button variant="outlined" color="inherit" size="small" onClick={() => buildOnNewer(newer)}>
                Build on revision {newer.revision}
              </Button>
            </Alert>
            <Box sx={{ mt: 2 }}>
              <InterfaceProfileView revision={newer} client={client} />
            </Box>
          </Box>
        ) : null}
        {failure?.status === 409 && !newer ? (
          <Alert severity="error" role="alert" sx={{ mb: 2 }}>
            {failure.message}
          </Alert>
        ) : null}
        {failure?.status === 400 ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            The server did not accept the revision: check the fields marked below.
          </Alert>
        ) : null}
        {failure && failure.status !== 409 && failure.status !== 400 ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            The revision was not saved: {failure.message}
          </Alert>
        ) : null}
        <Stack spacing={3}>
          <Section legend="What the hospital sends">
            <Grid size={{ xs: 12, sm: 6 }}>
              {text("sendingApplication", "Sending application (MSH-3)", "e.g. EPIC")}
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              {text("sendingFacility", "Sending facility (MSH-4)", "The facility code on the hospital's messages")}
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              {text("mrnAssigningAuthority", "MRN assigning authority (PID-3.4)", "e.g. UCHMC-MRN")}
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <FormSelectField
                control={control}
                name="visitNumberSource"
                label="Visit number from"
                options={labelledOptions(visitNumberSourceLabels)}
                fullWidth
              />
            </Grid>
            <Grid size={{ xs: 12 }}>
              <CheckboxField
                control={control}
                name="enabled"
                label="Interface on"
                help="Off: the hospital's messages are refused (AR) and no results are sent."
              />
            </Grid>
          </Section>
          <Section legend="What Vigil sends back">
            <Grid size={{ xs: 12, sm: 6 }}>{text("receivingApplication", "Receiving application (MSH-5)")}</Grid>
            <Grid size={{ xs: 12, sm: 6 }}>{text("receivingFacility", "Receiving facility (MSH-6)")}</Grid>
            <Grid size={{ xs: 12, sm: 8 }}>
              <FormSelectField
                control={control}
                name="resultStyle"
                label="Result style"
                options={labelledOptions(resultStyleLabels)}
                fullWidth
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 4 }}>
              <FormSelectField
                control={control}
                name="hl7Version"
                label="HL7 version"
                options={optionsOf(hl7Versions, (version) => version)}
                fullWidth
              />
            </Grid>
            <Grid size={{ xs: 12 }}>
              <CheckboxField
                control={control}
                name="orderStatusUpdates"
                label="Send order status updates (ORC-5)"
                help="In progress when monitoring starts, completed when the report is signed, cancelled when the case is archived."
              />
            </Grid>
          </Section>
          <Section legend="Destination for results">
            <Grid size={{ xs: 12 }}>
              <Typography variant="body2" color="text.secondary">
                The host and port of the hospital's interface engine. Leave both empty if the hospital takes no results
                by interface.
              </Typography>
            </Grid>
            <Grid size={{ xs: 12, sm: 8 }}>
              <FormTextField control={control} name="destination.host" label="Host" fullWidth />
            </Grid>
            <Grid size={{ xs: 12, sm: 4 }}>
              <FormTextField
                control={control}
                name="destination.port"
                label="Port"
                fullWidth
                slotProps={{ htmlInput: { inputMode: "numeric" } }}
              />
            </Grid>
            <Grid size={{ xs: 12 }}>
              <CheckboxField control={control} name="destination.tls" label="Use TLS" />
            </Grid>
            {tls ? (
              <Grid size={{ xs: 12 }}>
                <FormTextField
                  control={control}
                  name="destination.caCertificate"
                  label="CA certificate (optional)"
                  help="The PEM of the authority that signed the hospital's certificate; empty trusts the system's CAs."
                  fullWidth
                  multiline
                  minRows={3}
                />
              </Grid>
            ) : null}
          </Section>
          <FormTextField
            control={control}
            name="changeNote"
            label="Change note (optional)"
            help="Why this revision: shown in the history."
            fullWidth
          />
        </Stack>
        <FormActions submitLabel="Save revision" pending={create.isPending} spinner onCancel={onDone} />
      </Box>
    </Paper>
  );
}
