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
  createProtocolRevisionSchema,
  type ProtocolRevision,
  protocolRevisionSchema,
} from "@vigil/contract";
import { useState } from "react";
import { useWatch } from "react-hook-form";
import { SideBySideCompare } from "../../../components/compare/side-by-side-compare";
import { ZonedDateTime } from "../../../components/dates/zoned-date-time";
import { apiErrorOf, currentFromDetails } from "../../../components/forms/field-messages";
import { FormTextField } from "../../../components/forms/form-text-field";
import { applyServerError, useContractForm } from "../../../components/forms/use-contract-form";
import { useCreateProtocolRevision } from "../api/create-protocol-revision";
import { fetchClientProtocol } from "../api/get-client-protocol";
import {
  type ProtocolFormValues,
  protocolFormValues,
  protocolValueRows,
  type RebaseResult,
  rebaseProtocolDraft,
  toProtocolInput,
} from "../protocol-model";
import { ReportRecipientsField, useContactNames } from "./protocol-recipients";
import { authorName } from "./protocol-revision-view";
import { type ProtocolForm, TransferFieldsEditor } from "./transfer-fields-editor";

type NumberField =
  | "impedanceThresholdKohm"
  | "impedanceCheckIntervalHours"
  | "reviewTurnaroundHours"
  | "statAcknowledgeMinutes"
  | "criticalNotification.withinMinutes";

/** The newer revision next to the edits as they are now (kept current while the user goes on typing). */
function EditsComparedWith({
  newer,
  control,
  clientId,
}: {
  newer: ProtocolRevision;
  control: ProtocolForm["control"];
  clientId: string;
}) {
  const values = useWatch({ control }) as ProtocolFormValues;
  const contactNames = useContactNames(clientId);
  return (
    <SideBySideCompare
      label={`Revision ${newer.revision} compared with your edits`}
      leftTitle={`Revision ${newer.revision}`}
      rightTitle="Your edits"
      rows={protocolValueRows(protocolFormValues(newer), values, contactNames)}
      changedOnly
    />
  );
}

export type ProtocolEditorProps = {
  client: Client;
  /** The revision the new one builds on (null for a client's first protocol). */
  current: ProtocolRevision | null;
  onDone: () => void;
};

/**
 * A new protocol revision, prefilled from the current one and sent with `baseRevision`. If someone appended a
 * revision meanwhile the server answers 409 with it; the user's edits stay, and they can compare or rebase
 * them onto the newer revision (their changes taken in where the user did not touch the same setting).
 */
export function ProtocolEditor({ client, current, onDone }: ProtocolEditorProps) {
  const create = useCreateProtocolRevision();
  const [base, setBase] = useState<ProtocolFormValues>(() => protocolFormValues(current, current?.revision ?? null));
  const form = useContractForm({ schema: createProtocolRevisionSchema, defaultValues: base, toInput: toProtocolInput });
  const { control } = form;
  const baseRevision = useWatch({ control, name: "baseRevision" });
  const [newer, setNewer] = useState<ProtocolRevision | null>(null);
  const [comparing, setComparing] = useState(false);
  const [rebased, setRebased] = useState<(RebaseResult & { revision: number }) | null>(null);
  const failure = apiErrorOf(create.error);
  const contactNames = useContactNames(client.id);

  const submit = form.handleSubmit((input) => {
    create.mutate(
      { clientId: client.id, input },
      {
        onSuccess: () => {
          form.reset(form.getValues());
          onDone();
        },
        onError: async (error) => {
          const body = apiErrorOf(error);
          if (body?.status !== 409) {
            applyServerError(form.setError, error);
            return;
          }
          const parsed = protocolRevisionSchema.safeParse(currentFromDetails(error));
          const theirs = parsed.success
            ? parsed.data
            : await fetchClientProtocol(client.id)
                .then((protocol) => protocol.current)
                .catch(() => null);
          setRebased(null);
          setNewer(theirs);
        },
      },
    );
  });

  const rebase = (theirs: ProtocolRevision) => {
    const theirValues = protocolFormValues(theirs, theirs.revision);
    const result = rebaseProtocolDraft(base, form.getValues(), theirValues, theirs.revision, contactNames);
    // The edits stay unsaved edits: compared with the revision they started from, not reset to a clean form.
    form.reset(result.values, { keepDefaultValues: true });
    setBase(theirValues);
    setRebased({ ...result, revision: theirs.revision });
    setNewer(null);
    setComparing(false);
    create.reset();
  };

  const number = (name: NumberField, label: string, unit: string) => (
    <FormTextField
      control={control}
      name={name}
      label={label}
      required
      type="number"
      fullWidth
      slotProps={{ htmlInput: { inputMode: "decimal", step: "any" }, input: { endAdornment: unit } }}
    />
  );

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography variant="h6" component="h2">
        New protocol revision
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {baseRevision === null
          ? "The first protocol of this client."
          : `Based on revision ${baseRevision}. Saving appends a revision; earlier ones stay in the history.`}
      </Typography>
      <Box component="form" noValidate onSubmit={submit} aria-label="New protocol revision">
        {failure?.status === 409 ? (
          <Box sx={{ mb: 2 }}>
            <Alert severity="warning" role="alert">
              <AlertTitle>Someone revised this protocol first</AlertTitle>
              {newer ? (
                <Box component="p" sx={{ mt: 0 }}>
                  Revision {newer.revision} was saved by {authorName(newer.author)} on{" "}
                  <ZonedDateTime value={newer.createdAt} timeZone={client.timezone} /> while you were editing.
                </Box>
              ) : null}
              <Box component="p" sx={{ my: 0 }}>
                Nothing of yours was saved, and your edits are still in the form.
              </Box>
              {newer ? (
                <Stack direction="row" sx={{ mt: 1, gap: 1, flexWrap: "wrap" }}>
                  <Button variant="outlined" color="inherit" size="small" onClick={() => rebase(newer)}>
                    Rebase my edits onto revision {newer.revision}
                  </Button>
                  <Button variant="outlined" color="inherit" size="small" onClick={() => setComparing((open) => !open)}>
                    {comparing ? "Hide comparison" : `Compare with revision ${newer.revision}`}
                  </Button>
                </Stack>
              ) : null}
            </Alert>
            {newer && comparing ? (
              <Box sx={{ mt: 2 }}>
                <EditsComparedWith newer={newer} control={control} clientId={client.id} />
              </Box>
            ) : null}
          </Box>
        ) : null}
        {rebased ? (
          <Alert severity={rebased.conflicts.length > 0 ? "warning" : "success"} sx={{ mb: 2 }} role="status">
            <AlertTitle>Your edits now build on revision {rebased.revision}</AlertTitle>
            {rebased.taken.length > 0
              ? `Taken from revision ${rebased.revision}: ${rebased.taken.join(", ")}. `
              : `Revision ${rebased.revision} changed nothing you did not also change. `}
            {rebased.conflicts.length > 0 ? (
              <>
                You and they both changed these; your version is kept — check it before saving:
                <Box component="ul" sx={{ my: 1, pl: 3 }}>
                  {rebased.conflicts.map((conflict) => (
                    <li key={conflict.path}>
                      <strong>{conflict.label}</strong>: theirs was{" "}
                      <Box component="span" sx={{ whiteSpace: "pre-wrap" }}>
                        “{conflict.theirs || "(empty)"}”
                      </Box>
                    </li>
                  ))}
                </Box>
              </>
            ) : (
              "Save when ready."
            )}
          </Alert>
        ) : null}
        {failure && failure.status !== 409 && failure.status !== 400 ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            The revision was not saved: {failure.message}
          </Alert>
        ) : null}
        {failure?.status === 400 ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            The server did not accept the revision: check the fields marked below.
          </Alert>
        ) : null}
        <Stack spacing={3}>
          <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
            <Typography component="legend" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
              Monitoring
            </Typography>
            <Grid container spacing={2}>
              <Grid size={{ xs: 12 }}>
                <FormTextField
                  control={control}
                  name="instructions"
                  label="Monitoring instructions"
                  fullWidth
                  multiline
                  minRows={4}
                />
              </Grid>
              <Grid size={{ xs: 12, sm: 4 }}>{number("impedanceThresholdKohm", "Impedance threshold", "kΩ")}</Grid>
              <Grid size={{ xs: 12, sm: 4 }}>
                {number("impedanceCheckIntervalHours", "Impedance check interval", "h")}
              </Grid>
              <Grid size={{ xs: 12, sm: 4 }}>{number("reviewTurnaroundHours", "Review turnaround", "h")}</Grid>
              <Grid size={{ xs: 12, sm: 8 }}>
                {number("statAcknowledgeMinutes", "STAT cases taken by a reviewer within", "min")}
              </Grid>
            </Grid>
          </Box>
          <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
            <Typography component="legend" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
              Critical findings
            </Typography>
            <Grid container spacing={2}>
              <Grid size={{ xs: 12, sm: 8 }}>
                <FormTextField
                  control={control}
                  name="criticalNotification.notify"
                  label="Who to notify"
                  help="e.g. the attending neurologist, then the charge nurse"
                  fullWidth
                />
              </Grid>
              <Grid size={{ xs: 12, sm: 4 }}>
                {number("criticalNotification.withinMinutes", "Notify within", "min")}
              </Grid>
            </Grid>
          </Box>
          <ReportRecipientsField form={form} clientId={client.id} />
          <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
            <Typography component="legend" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
              Transfer form
            </Typography>
            <Stack spacing={2}>
              <FormTextField
                control={control}
                name="transferForm.title"
                label="Transfer form title"
                required
                fullWidth
              />
              <FormTextField
                control={control}
                name="transferForm.instructions"
                label="Transfer form instructions"
                fullWidth
                multiline
                minRows={3}
              />
              <TransferFieldsEditor form={form} />
            </Stack>
          </Box>
          <FormTextField
            control={control}
            name="changeNote"
            label="Change note"
            help="What changed and why (shown in the history)"
            fullWidth
          />
        </Stack>
        <Stack direction="row" spacing={2} sx={{ mt: 3 }}>
          <Button type="submit" variant="contained" disabled={create.isPending}>
            {create.isPending ? "Saving…" : "Save revision"}
          </Button>
          <Button
            onClick={() => {
              form.reset(base);
              onDone();
            }}
            disabled={create.isPending}
          >
            Cancel
          </Button>
        </Stack>
      </Box>
    </Paper>
  );
}
