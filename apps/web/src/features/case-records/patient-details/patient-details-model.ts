import {
  type PatientDetailsRevision,
  patientDetailsRevisionSchema,
  patientDetailsViewSchema,
  updatePatientDetailsRequestSchema,
} from "@vigil/contract";
import { z } from "zod";
import { sexLabels } from "../../../components/patient/patient-labels";

/** A revision with its number as `version`, the shape `useVersionedSave` works with (the number is the ETag). */
export type PatientRecord = PatientDetailsRevision & { version: number };

export function patientRecordOf(revision: PatientDetailsRevision): PatientRecord {
  return { ...revision, version: revision.revision };
}

/** A 412's `details.current`: the current revision (or the whole view, should the server send that). */
export const patientRecordSchema: z.ZodType<PatientRecord> = z
  .union([patientDetailsRevisionSchema, patientDetailsViewSchema.transform((view) => view.current)])
  .transform(patientRecordOf);

export { sexLabels };

export type PatientFormValues = {
  mrn: string;
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  sex: PatientDetailsRevision["sex"];
  location: { unit: string; room: string; bed: string };
  referringPhysician: string;
  indication: string;
  medications: string;
  notes: string;
  /** Why the details change (required after monitoring); not part of the details themselves. */
  reason: string;
};

export const patientFieldLabels = {
  mrn: "MRN",
  firstName: "First name",
  lastName: "Last name",
  dateOfBirth: "Date of birth",
  sex: "Sex",
  unit: "Unit",
  room: "Room",
  bed: "Bed",
  referringPhysician: "Referring physician",
  indication: "Indication",
  medications: "Medications",
  notes: "Notes",
} as const;

export function patientFormValues(record: PatientDetailsRevision): PatientFormValues {
  return {
    mrn: record.mrn,
    firstName: record.firstName,
    lastName: record.lastName,
    dateOfBirth: record.dateOfBirth ?? "",
    sex: record.sex,
    location: {
      unit: record.location.unit ?? "",
      room: record.location.room ?? "",
      bed: record.location.bed ?? "",
    },
    referringPhysician: record.referringPhysician ?? "",
    indication: record.indication ?? "",
    medications: record.medications ?? "",
    notes: record.notes ?? "",
    reason: "",
  };
}

const blankToNull = (text: string) => (text.trim() === "" ? null : text);

export function patientInput(values: PatientFormValues) {
  return {
    mrn: values.mrn,
    firstName: values.firstName,
    lastName: values.lastName,
    dateOfBirth: blankToNull(values.dateOfBirth),
    sex: values.sex,
    location: {
      unit: blankToNull(values.location.unit),
      room: blankToNull(values.location.room),
      bed: blankToNull(values.location.bed),
    },
    referringPhysician: blankToNull(values.referringPhysician),
    indication: blankToNull(values.indication),
    medications: blankToNull(values.medications),
    notes: blankToNull(values.notes),
    reason: blankToNull(values.reason),
  };
}

/** The contract's request; when the stage asks for a reason (after monitoring) it is required here too. */
export function patientDetailsFormSchema(reasonRequired: boolean) {
  return reasonRequired
    ? updatePatientDetailsRequestSchema.extend({ reason: z.string().trim().min(1, "is required").max(2000) })
    : updatePatientDetailsRequestSchema;
}

/** Printable fields (label → value) for the history's diffs and the conflict comparison. */
export function flattenPatient(values: Omit<PatientFormValues, "reason">): Record<string, string> {
  return {
    [patientFieldLabels.mrn]: values.mrn,
    [patientFieldLabels.firstName]: values.firstName,
    [patientFieldLabels.lastName]: values.lastName,
    [patientFieldLabels.dateOfBirth]: values.dateOfBirth,
    [patientFieldLabels.sex]: sexLabels[values.sex],
    [patientFieldLabels.unit]: values.location.unit,
    [patientFieldLabels.room]: values.location.room,
    [patientFieldLabels.bed]: values.location.bed,
    [patientFieldLabels.referringPhysician]: values.referringPhysician,
    [patientFieldLabels.indication]: values.indication,
    [patientFieldLabels.medications]: values.medications,
    [patientFieldLabels.notes]: values.notes,
  };
}

export function flattenPatientRevision(revision: PatientDetailsRevision): Record<string, string> {
  return flattenPatient(patientFormValues(revision));
}
