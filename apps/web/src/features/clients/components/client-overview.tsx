import Edit from "@mui/icons-material/Edit";
import Restore from "@mui/icons-material/Restore";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useQueryClient } from "@tanstack/react-query";
import { type Client, clientInputSchema, clientSchema } from "@vigil/contract";
import { useState } from "react";
import { fetchClient } from "../../../api/get-client";
import { useAccess } from "../../../components/access/access-context";
import type { CompareRow } from "../../../components/compare/side-by-side-compare";
import { ZonedDateTime } from "../../../components/dates/zoned-date-time";
import { ArchiveButton } from "../../../components/feedback/archive-button";
import { FormActions } from "../../../components/forms/form-actions";
import { useContractForm } from "../../../components/forms/use-contract-form";
import { useVersionedSave, VersionedSaveMessages } from "../../../components/forms/use-versioned-save";
import { DetailList, DetailRow } from "../../../components/layouts/detail-list";
import { useArchiveClient } from "../api/archive-client";
import { clientKeys } from "../api/query-keys";
import { useRestoreClient } from "../api/restore-client";
import { useUpdateClient } from "../api/update-client";
import { addressOf, clientStatusLabels } from "../client-labels";
import {
  ClientFormFields,
  type ClientFormValues,
  clientFieldLabels,
  clientFormValues,
  toClientInput,
} from "./client-form-fields";

/** Their saved client next to the form's unsaved values, field by field. */
export function clientConflictRows(theirs: Client, mine: ClientFormValues): CompareRow[] {
  const theirValues = clientFormValues(theirs);
  return (Object.keys(clientFieldLabels) as (keyof ClientFormValues)[]).map((key) => ({
    key,
    label: clientFieldLabels[key],
    left: key === "status" ? clientStatusLabels[theirValues.status] : theirValues[key],
    right: key === "status" ? clientStatusLabels[mine.status] : mine[key],
  }));
}

function ClientEditor({ client, onDone }: { client: Client; onDone: () => void }) {
  const queryClient = useQueryClient();
  const update = useUpdateClient();
  const form = useContractForm({
    schema: clientInputSchema,
    defaultValues: clientFormValues(client),
    toInput: toClientInput,
  });
  const saving = useVersionedSave({
    form,
    initialVersion: client.version,
    recordSchema: clientSchema,
    valuesOf: clientFormValues,
    save: (version, input) => update.mutateAsync({ clientId: client.id, version, input }),
    readCurrent: () => fetchClient(client.id),
    onConflict: (theirs) => queryClient.setQueryData(clientKeys.client(client.id), theirs),
    onSaved: onDone,
  });

  return (
    <Box component="form" noValidate onSubmit={saving.submit} aria-label="Edit client">
      <VersionedSaveMessages
        state={saving}
        form={form}
        title="Someone else saved this client first"
        unreadable="Someone else saved this client first, and their version could not be read. Your edits are still in the form; reload the page to see their version."
        notSaved="The client was not saved"
        rows={clientConflictRows}
      >
        {(theirs) => (
          <Box component="p" sx={{ mt: 0 }}>
            Their version was saved <ZonedDateTime value={theirs.updatedAt} timeZone={client.timezone} />.
          </Box>
        )}
      </VersionedSaveMessages>
      <ClientFormFields form={form} />
      <FormActions
        submitLabel={saving.pending ? "Saving…" : "Save"}
        pending={saving.pending}
        onCancel={() => {
          form.reset(clientFormValues(client));
          onDone();
        }}
      />
    </Box>
  );
}

function ArchiveClientButton({ client }: { client: Client }) {
  const archive = useArchiveClient();
  return (
    <ArchiveButton
      title={`Archive ${client.name}?`}
      confirmLabel="Archive client"
      pending={archive.isPending}
      error={archive.error}
      archive={(done) => archive.mutate(client.id, { onSuccess: done })}
      reset={archive.reset}
    >
      <p style={{ marginTop: 0 }}>
        The client disappears from lists and pickers. Its protocol, contacts, links and cases are kept, and an
        administrator can restore it.
      </p>
      <p style={{ marginBottom: 0 }}>
        A client with open cases cannot be archived
        {client.openCaseCount > 0 ? ` — ${client.name} has ${client.openCaseCount} open.` : "."}
      </p>
    </ArchiveButton>
  );
}

function RestoreButton({ client }: { client: Client }) {
  const restore = useRestoreClient();
  return (
    <Button
      variant="contained"
      startIcon={<Restore />}
      onClick={() => restore.mutate(client.id)}
      disabled={restore.isPending}
    >
      {restore.isPending ? "Restoring…" : "Restore client"}
    </Button>
  );
}

/** The overview tab: the client's details, edited in place with If-Match; archive and restore. */
export function ClientOverview({ client }: { client: Client }) {
  const { can } = useAccess();
  const [editing, setEditing] = useState(false);
  const canWrite = can("clients:write") && !client.archivedAt;
  const zone = client.timezone;

  if (editing && canWrite) {
    return (
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 900 }}>
        <Typography variant="h6" component="h2" gutterBottom>
          Edit client
        </Typography>
        <ClientEditor client={client} onDone={() => setEditing(false)} />
      </Paper>
    );
  }

  return (
    <Stack spacing={2} sx={{ maxWidth: 900 }}>
      {client.archivedAt ? (
        <Alert severity="info" action={can("clients:restore") ? <RestoreButton client={client} /> : undefined}>
          Archived on <ZonedDateTime value={client.archivedAt} timeZone={zone} />. Archived clients are read-only
          {can("clients:restore") ? "." : "; an administrator can restore them."}
        </Alert>
      ) : null}
      {canWrite ? (
        <Stack direction="row" spacing={2}>
          <Button variant="contained" startIcon={<Edit />} onClick={() => setEditing(true)}>
            Edit
          </Button>
          <ArchiveClientButton client={client} />
        </Stack>
      ) : null}
      <Paper variant="outlined" sx={{ px: { xs: 2, sm: 3 }, py: 1 }}>
        <DetailList labelWidth={200}>
          <DetailRow label={clientFieldLabels.name}>{client.name}</DetailRow>
          <DetailRow label={clientFieldLabels.code}>{client.code}</DetailRow>
          <DetailRow label={clientFieldLabels.status}>{clientStatusLabels[client.status]}</DetailRow>
          <DetailRow label={clientFieldLabels.timezone}>{client.timezone}</DetailRow>
          <DetailRow label={clientFieldLabels.phone}>{client.phone}</DetailRow>
          <DetailRow label="Address">{addressOf(client)}</DetailRow>
          <DetailRow label={clientFieldLabels.notes}>{client.notes}</DetailRow>
          <DetailRow label="Open cases">{String(client.openCaseCount)}</DetailRow>
          <DetailRow label="Created">
            <ZonedDateTime value={client.createdAt} timeZone={zone} />
          </DetailRow>
          <DetailRow label="Last updated">
            <ZonedDateTime value={client.updatedAt} timeZone={zone} />
          </DetailRow>
        </DetailList>
      </Paper>
    </Stack>
  );
}
