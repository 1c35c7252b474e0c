import Edit from "@mui/icons-material/Edit";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Grid from "@mui/material/Grid";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useQueryClient } from "@tanstack/react-query";
import { type Case, caseSchema, formatInstantInZone, pages, updateCaseRequestSchema } from "@vigil/contract";
import { type ReactNode, useState } from "react";
import { useNavigate } from "react-router";
import type { CompareRow } from "../../../components/compare/side-by-side-compare";
import { ZonedDateTime } from "../../../components/dates/zoned-date-time";
import { isoToZonedInput, zonedInputToIso } from "../../../components/dates/zoned-input";
import { ZonedTimeField } from "../../../components/dates/zoned-time-field";
import { ArchiveButton } from "../../../components/feedback/archive-button";
import { CheckboxField } from "../../../components/forms/checkbox-field";
import { FormActions } from "../../../components/forms/form-actions";
import { FormSelectField, labelledOptions } from "../../../components/forms/select-field";
import { useContractForm } from "../../../components/forms/use-contract-form";
import { useVersionedSave, VersionedSaveMessages } from "../../../components/forms/use-versioned-save";
import { DetailList, DetailRow } from "../../../components/layouts/detail-list";
import { useArchiveCase } from "../api/archive-case";
import { fetchCase } from "../api/get-case";
import { caseKeys } from "../api/query-keys";
import { useUpdateCase } from "../api/update-case";
import { locationOf, patientName, personName, priorityLabels, sexLabels, studyTypeLabels } from "../case-labels";
import { CaseClocksCard } from "./case-clocks-card";
import { CaseOrderCard } from "./case-order-card";

type CaseFormValues = {
  studyType: Case["studyType"];
  hasVideo: boolean;
  priority: Case["priority"];
  recordingStartedAt: string;
  recordingEndedAt: string;
};

const fieldLabels: Record<keyof CaseFormValues, string> = {
  studyType: "Study type",
  hasVideo: "Video recorded",
  priority: "Priority",
  recordingStartedAt: "Recording started",
  recordingEndedAt: "Recording ended",
};

function formValues(item: Case): CaseFormValues {
  const zone = item.client.timezone;
  return {
    studyType: item.studyType,
    hasVideo: item.hasVideo,
    priority: item.priority,
    recordingStartedAt: isoToZonedInput(item.recordingStartedAt, zone),
    recordingEndedAt: isoToZonedInput(item.recordingEndedAt, zone),
  };
}

/** Wall times typed in the client's zone → instants; an empty box clears the time, a broken one is shown invalid. */
function toInput(zone: string) {
  const instant = (text: string) => (text.trim() === "" ? null : (zonedInputToIso(text, zone) ?? text));
  return (values: CaseFormValues) => ({
    studyType: values.studyType,
    hasVideo: values.hasVideo,
    priority: values.priority,
    recordingStartedAt: instant(values.recordingStartedAt),
    recordingEndedAt: instant(values.recordingEndedAt),
  });
}

function conflictRows(theirs: Case, mine: CaseFormValues): CompareRow[] {
  const zone = theirs.client.timezone;
  const show = (values: CaseFormValues, key: keyof CaseFormValues): string => {
    if (key === "studyType") return studyTypeLabels[values.studyType];
    if (key === "priority") return priorityLabels[values.priority];
    if (key === "hasVideo") return values.hasVideo ? "Yes" : "No";
    const iso = zonedInputToIso(values[key], zone);
    return iso ? formatInstantInZone(iso, zone) : values[key];
  };
  const their = formValues(theirs);
  return (Object.keys(fieldLabels) as (keyof CaseFormValues)[]).map((key) => ({
    key,
    label: fieldLabels[key],
    left: show(their, key),
    right: show(mine, key),
  }));
}

function CaseEditor({ item, onDone }: { item: Case; onDone: () => void }) {
  const queryClient = useQueryClient();
  const update = useUpdateCase();
  const zone = item.client.timezone;
  const form = useContractForm({
    schema: updateCaseRequestSchema,
    defaultValues: formValues(item),
    toInput: toInput(zone),
  });
  const saving = useVersionedSave({
    form,
    initialVersion: item.version,
    recordSchema: caseSchema,
    valuesOf: formValues,
    save: (version, input) => update.mutateAsync({ caseId: item.id, version, input }),
    readCurrent: () => fetchCase(item.id),
    onConflict: (theirs) => queryClient.setQueryData(caseKeys.case(item.id), theirs),
    onSaved: onDone,
  });

  return (
    <Box component="form" noValidate onSubmit={saving.submit} aria-label="Edit case">
      <VersionedSaveMessages
        state={saving}
        form={form}
        title="Someone else changed this case first"
        unreadable="Someone else changed this case first, and their version could not be read. Your edits are still in the form; reload the page to see their version."
        notSaved="The case was not saved"
        rows={conflictRows}
      >
        {(theirs) => (
          <Box component="p" sx={{ mt: 0 }}>
            Their version was saved <ZonedDateTime value={theirs.updatedAt} timeZone={zone} />.
          </Box>
        )}
      </VersionedSaveMessages>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, sm: 6 }}>
          <FormSelectField
            control={form.control}
            name="studyType"
            label={fieldLabels.studyType}
            fullWidth
            options={labelledOptions(studyTypeLabels)}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <FormSelectField
            control={form.control}
            name="priority"
            label={fieldLabels.priority}
            fullWidth
            options={labelledOptions(priorityLabels)}
          />
        </Grid>
        <Grid size={12}>
          <CheckboxField control={form.control} name="hasVideo" label={fieldLabels.hasVideo} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <ZonedTimeField
            control={form.control}
            name="recordingStartedAt"
            label={fieldLabels.recordingStartedAt}
            timeZone={zone}
            note="empty = not set"
            fullWidth
            deps={["recordingEndedAt"]}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <ZonedTimeField
            control={form.control}
            name="recordingEndedAt"
            label={fieldLabels.recordingEndedAt}
            timeZone={zone}
            note="empty = not set"
            fullWidth
            deps={["recordingStartedAt"]}
          />
        </Grid>
      </Grid>
      <FormActions
        submitLabel={saving.pending ? "Saving…" : "Save"}
        pending={saving.pending}
        onCancel={() => {
          form.reset(formValues(item));
          onDone();
        }}
      />
    </Box>
  );
}

function ArchiveCaseButton({ item }: { item: Case }) {
  const archive = useArchiveCase();
  const navigate = useNavigate();
  return (
    <ArchiveButton
      title={`Archive ${item.caseNumber}?`}
      confirmLabel="Archive case"
      pending={archive.isPending}
      error={archive.error}
      archive={(done) =>
        archive.mutate(item.id, {
          onSuccess: () => {
            done();
            void navigate(pages[`cases-${item.stage}` as const].href());
          },
        })
      }
      reset={archive.reset}
    >
      The case leaves its queue. Its records and timeline are kept; archiving is recorded in the audit log.
    </ArchiveButton>
  );
}

/**
 * The overview tab: the case's fields and patient, edited in place with If-Match; archive. `lead` is what the app
 * layer puts above them (the critical findings panel), another feature's part of the screen.
 */
export function CaseOverview({ item, lead }: { item: Case; lead?: ReactNode }) {
  const [editing, setEditing] = useState(false);
  const zone = item.client.timezone;
  // The server decides, by the rules its PATCH and DELETE apply (role, stage, archived).
  const { edit: canEdit, archive: canArchive } = item.allowedChanges;
  const patient = item.patient;

  if (editing && canEdit) {
    return (
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 900 }}>
        <Typography variant="h6" component="h2" gutterBottom>
          Edit case
        </Typography>
        <CaseEditor item={item} onDone={() => setEditing(false)} />
      </Paper>
    );
  }
  return (
    <Stack spacing={2} sx={{ maxWidth: 900 }}>
      {lead}
      {item.archivedAt ? (
        <Alert severity="info">
          Archived on <ZonedDateTime value={item.archivedAt} timeZone={zone} />. Archived cases are read-only.
        </Alert>
      ) : null}
      {canEdit || canArchive ? (
        <Stack direction="row" spacing={2}>
          {canEdit ? (
            <Button variant="contained" startIcon={<Edit />} onClick={() => setEditing(true)}>
              Edit
            </Button>
          ) : null}
          {canArchive ? <ArchiveCaseButton item={item} /> : null}
        </Stack>
      ) : null}
      <Paper variant="outlined" sx={{ px: { xs: 2, sm: 3 }, py: 1 }}>
        <Typography variant="h6" component="h2" sx={{ pt: 1 }}>
          Case
        </Typography>
        <DetailList>
          <DetailRow label="Case number">{item.caseNumber}</DetailRow>
          <DetailRow label="Client">
            {item.client.name} ({item.client.code}), times in {zone}
          </DetailRow>
          <DetailRow label={fieldLabels.studyType}>{studyTypeLabels[item.studyType]}</DetailRow>
          <DetailRow label={fieldLabels.hasVideo}>{item.hasVideo ? "Yes" : "No"}</DetailRow>
          <DetailRow label={fieldLabels.priority}>{priorityLabels[item.priority]}</DetailRow>
          <DetailRow label={fieldLabels.recordingStartedAt}>
            {item.recordingStartedAt ? <ZonedDateTime value={item.recordingStartedAt} timeZone={zone} /> : null}
          </DetailRow>
          <DetailRow label={fieldLabels.recordingEndedAt}>
            {item.recordingEndedAt ? <ZonedDateTime value={item.recordingEndedAt} timeZone={zone} /> : null}
          </DetailRow>
          <DetailRow label="Client protocol">
            {item.protocolRevision ? `Revision ${item.protocolRevision} (pinned when monitoring started)` : null}
          </DetailRow>
          <DetailRow label="Opened">
            <ZonedDateTime value={item.createdAt} timeZone={zone} /> by {personName(item.createdBy)}
          </DetailRow>
          <DetailRow label="Last changed">
            <ZonedDateTime value={item.updatedAt} timeZone={zone} />
          </DetailRow>
        </DetailList>
      </Paper>
      {item.order ? <CaseOrderCard order={item.order} timeZone={zone} /> : null}
      <CaseClocksCard caseId={item.id} timeZone={zone} />
      <Paper variant="outlined" sx={{ px: { xs: 2, sm: 3 }, py: 1 }}>
        <Typography variant="h6" component="h2" sx={{ pt: 1 }}>
          Patient
        </Typography>
        {patient ? (
          <DetailList>
            <DetailRow label="Name">{patientName(patient)}</DetailRow>
            <DetailRow label="MRN">{patient.mrn}</DetailRow>
            <DetailRow label="Date of birth">{patient.dateOfBirth}</DetailRow>
            <DetailRow label="Sex">{sexLabels[patient.sex]}</DetailRow>
            <DetailRow label="Location">{locationOf(patient.location)}</DetailRow>
            <DetailRow label="Details revision">{String(patient.revision)}</DetailRow>
          </DetailList>
        ) : (
          <Typography color="text.secondary" sx={{ py: 1 }}>
            No patient details yet.
          </Typography>
        )}
      </Paper>
    </Stack>
  );
}
