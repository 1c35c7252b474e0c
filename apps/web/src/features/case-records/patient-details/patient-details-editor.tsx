import Box from "@mui/material/Box";
import Grid from "@mui/material/Grid";
import { useQueryClient } from "@tanstack/react-query";
import type { Case, PatientDetailsView } from "@vigil/contract";
import type { CompareRow } from "../../../components/compare/side-by-side-compare";
import { ZonedDateTime } from "../../../components/dates/zoned-date-time";
import { FormActions } from "../../../components/forms/form-actions";
import { FormTextField } from "../../../components/forms/form-text-field";
import { useContractForm } from "../../../components/forms/use-contract-form";
import { useVersionedSave, VersionedSaveMessages } from "../../../components/forms/use-versioned-save";
import { PatientFields } from "../../../components/patient/patient-fields";
import { fetchPatientDetails } from "../api/get-patient-details";
import { recordKeys } from "../api/query-keys";
import { useUpdatePatientDetails } from "../api/update-patient-details";
import { authorName, compareRowsOf } from "../components/record-labels";
import {
  flattenPatient,
  type PatientFormValues,
  type PatientRecord,
  patientDetailsFormSchema,
  patientFormValues,
  patientInput,
  patientRecordOf,
  patientRecordSchema,
} from "./patient-details-model";

function conflictRows(zone: string) {
  return (theirs: PatientRecord, mine: PatientFormValues): CompareRow[] =>
    compareRowsOf(flattenPatient(patientFormValues(theirs)), flattenPatient(mine), zone);
}

/**
 * The patient details, edited as a new revision with `If-Match` = the revision opened. After monitoring a reason
 * is required. When someone saved first (412) the edits stay beside their version (`useVersionedSave`).
 */
export function PatientDetailsEditor({
  caseItem,
  view,
  onDone,
}: {
  caseItem: Case;
  view: PatientDetailsView;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const update = useUpdatePatientDetails();
  const zone = caseItem.client.timezone;
  const reasonRequired = view.write.reasonRequired;
  const form = useContractForm({
    schema: patientDetailsFormSchema(reasonRequired),
    defaultValues: patientFormValues(view.current),
    toInput: patientInput,
  });
  const { control } = form;
  const saving = useVersionedSave({
    form,
    initialVersion: view.current.revision,
    recordSchema: patientRecordSchema,
    valuesOf: patientFormValues,
    save: (revision, input) =>
      update.mutateAsync({ caseId: caseItem.id, revision, input }).then((saved) => patientRecordOf(saved)),
    readCurrent: () => fetchPatientDetails(caseItem.id).then((current) => patientRecordOf(current.current)),
    onConflict: () => void queryClient.invalidateQueries({ queryKey: recordKeys.patientDetails(caseItem.id) }),
    onSaved: onDone,
  });

  return (
    <Box component="form" noValidate onSubmit={saving.submit} aria-label="Edit patient details">
      <VersionedSaveMessages
        state={saving}
        form={form}
        title="Someone else changed the patient details first"
        unreadable="Someone else changed the patient details first, and their version could not be read. Your edits are still in the form; reload the page to see their version."
        notSaved="The patient details were not saved"
        rows={conflictRows(zone)}
      >
        {(theirs) => (
          <Box component="p" sx={{ mt: 0 }}>
            Revision {theirs.revision} was saved by {authorName(theirs.author)} on{" "}
            <ZonedDateTime value={theirs.createdAt} timeZone={zone} />.
          </Box>
        )}
      </VersionedSaveMessages>
      <Grid container spacing={2}>
        <PatientFields control={control} />
        <Grid size={12}>
          <FormTextField
            control={control}
            name="reason"
            label="Reason for the change"
            required={reasonRequired}
            fullWidth
            multiline
            minRows={2}
            help={
              reasonRequired ? "Required once monitoring is over; kept in the history" : "Optional; kept in the history"
            }
          />
        </Grid>
      </Grid>
      <FormActions
        submitLabel={saving.pending ? "Saving…" : "Save"}
        pending={saving.pending}
        spinner
        onCancel={() => {
          form.reset(patientFormValues(view.current));
          onDone();
        }}
      />
    </Box>
  );
}
