import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Grid from "@mui/material/Grid";
import Typography from "@mui/material/Typography";
import { type CreateCaseRequest, createCaseRequestSchema, pages } from "@vigil/contract";
import { useNavigate } from "react-router";
import { useClientIds } from "../../../api/list-client-ids";
import { CheckboxField } from "../../../components/forms/checkbox-field";
import { apiErrorOf } from "../../../components/forms/field-messages";
import { FormActions } from "../../../components/forms/form-actions";
import { clientOptions, FormSelectField, labelledOptions } from "../../../components/forms/select-field";
import { applyServerError, showServerErrors, useContractForm } from "../../../components/forms/use-contract-form";
import { PageHeading } from "../../../components/layouts/page-heading";
import { PatientFields } from "../../../components/patient/patient-fields";
import { useCreateCase } from "../api/create-case";
import { priorityLabels, studyTypeLabels } from "../case-labels";

/** What the form edits: the request's shape (so error paths match the server's), every input as text. */
type CaseCreateValues = {
  clientId: string;
  studyType: string;
  hasVideo: boolean;
  priority: string;
  patient: {
    mrn: string;
    firstName: string;
    lastName: string;
    dateOfBirth: string;
    sex: string;
    location: { unit: string; room: string; bed: string };
    referringPhysician: string;
    indication: string;
    medications: string;
    notes: string;
  };
};

const emptyValues: CaseCreateValues = {
  clientId: "",
  studyType: "",
  hasVideo: false,
  priority: "routine",
  patient: {
    mrn: "",
    firstName: "",
    lastName: "",
    dateOfBirth: "",
    sex: "unknown",
    location: { unit: "", room: "", bed: "" },
    referringPhysician: "",
    indication: "",
    medications: "",
    notes: "",
  },
};

const blankToNull = (text: string): string | null => (text.trim() === "" ? null : text);
const blankToUndefined = (text: string): string | undefined => (text === "" ? undefined : text);

/** The request body: empty choices are missing (so they read "is required"), empty optional text is null. */
function toCreateInput(values: CaseCreateValues): CreateCaseRequest {
  const patient = values.patient;
  return {
    clientId: blankToUndefined(values.clientId) as string,
    studyType: blankToUndefined(values.studyType) as CreateCaseRequest["studyType"],
    hasVideo: values.hasVideo,
    priority: values.priority as CreateCaseRequest["priority"],
    patient: {
      mrn: patient.mrn,
      firstName: patient.firstName,
      lastName: patient.lastName,
      dateOfBirth: blankToNull(patient.dateOfBirth),
      sex: patient.sex as NonNullable<CreateCaseRequest["patient"]["sex"]>,
      location: {
        unit: blankToNull(patient.location.unit),
        room: blankToNull(patient.location.room),
        bed: blankToNull(patient.location.bed),
      },
      referringPhysician: blankToNull(patient.referringPhysician),
      indication: blankToNull(patient.indication),
      medications: blankToNull(patient.medications),
      notes: blankToNull(patient.notes),
    },
  };
}

/**
 * `/continuous-monitoring/cases/create`: opens a case in intake for an active client with the patient's details
 * (revision 1). Checked as typed with the contract's schema; the server's messages land on their fields; on
 * success the new case's intake page opens.
 */
export function CaseCreatePage() {
  const navigate = useNavigate();
  const create = useCreateCase();
  const clients = useClientIds();
  const form = useContractForm({
    schema: createCaseRequestSchema,
    defaultValues: emptyValues,
    toInput: toCreateInput,
  });
  const { control } = form;
  const failure = apiErrorOf(create.error);

  const submit = form.handleSubmit((input) => {
    create.mutate(input, {
      onSuccess: (created) => {
        form.reset(form.getValues());
        void navigate(pages[`case-${created.stage}-detail` as const].href({ caseId: created.id, tab: "overview" }));
      },
      onError: (error) => {
        const body = apiErrorOf(error);
        // A client that cannot take cases (inactive, archived) is a refusal about the client field.
        if (!applyServerError(form.setError, error) && (body?.status === 409 || body?.status === 422))
          showServerErrors(form.setError, { clientId: body.message });
      },
    });
  });

  return (
    <>
      <PageHeading>New case</PageHeading>
      <Box component="form" noValidate onSubmit={submit} aria-label="New case" sx={{ maxWidth: 900 }}>
        {failure && failure.status !== 400 && failure.status !== 409 && failure.status !== 422 ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            The case was not created: {failure.message}
          </Alert>
        ) : null}
        {failure?.status === 400 ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            The server did not accept the case: check the fields marked below.
          </Alert>
        ) : null}
        {clients.isError ? (
          <Alert
            severity="error"
            sx={{ mb: 2 }}
            action={<Button onClick={() => void clients.refetch()}>Try again</Button>}
          >
            The clients could not be loaded.
          </Alert>
        ) : null}
        <Typography variant="h6" component="h2" gutterBottom>
          Study
        </Typography>
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 6 }}>
            <FormSelectField
              control={control}
              name="clientId"
              label="Client"
              required
              fullWidth
              help={clients.isPending ? "Loading clients…" : "Active clients only"}
              emptyLabel="Choose a client…"
              options={clientOptions(clients.data)}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6, md: 3 }}>
            <FormSelectField
              control={control}
              name="studyType"
              label="Study type"
              required
              fullWidth
              emptyLabel="Choose…"
              options={labelledOptions(studyTypeLabels)}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6, md: 3 }}>
            <FormSelectField
              control={control}
              name="priority"
              label="Priority"
              help="STAT cases come first"
              fullWidth
              options={labelledOptions(priorityLabels)}
            />
          </Grid>
          <Grid size={12}>
            <CheckboxField control={control} name="hasVideo" label="Video recording" />
          </Grid>
        </Grid>
        <Typography variant="h6" component="h2" gutterBottom sx={{ mt: 3 }}>
          Patient
        </Typography>
        <Grid container spacing={2}>
          <PatientFields control={control} prefix="patient." />
        </Grid>
        <FormActions
          submitLabel={create.isPending ? "Creating…" : "Create case"}
          pending={create.isPending}
          cancelTo={pages["cases-intake"].href()}
        />
      </Box>
    </>
  );
}
