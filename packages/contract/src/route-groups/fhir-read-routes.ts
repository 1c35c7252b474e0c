import { z } from "zod";
import { type FhirSearchParam, fhirBasePath, fhirRoute } from "../fhir-route-definition.js";

/**
 * Reads and searches of the FHIR endpoint (docs/design/FHIR.md, "Reading and searching"): every resource a hospital's
 * system reads, always within the Vigil client its token belongs to. Search answers are `searchset` Bundles paged
 * with `_count` (20, at most 100) and the `_cursor` of the `next` link; a parameter not listed is a 400.
 */

const idParams = z.object({ id: z.string().min(1).max(64) });

const patient: FhirSearchParam = {
  name: "patient",
  type: "reference",
  documentation: "Patient/<id> (a Patient's id is its case's); `subject` is the same",
};
const subject: FhirSearchParam = { ...patient, name: "subject" };
const patientIdentifier: FhirSearchParam = {
  name: "patient:identifier",
  type: "token",
  documentation: "The patient's MRN as system|value (the system as the Patient's identifier says) or value",
};
const lastUpdated: FhirSearchParam = { name: "_lastUpdated", type: "date" };
const id: FhirSearchParam = { name: "_id", type: "token" };
const count: FhirSearchParam = {
  name: "_count",
  type: "number",
  documentation: "Page size: 20 unless given, at most 100",
};

function readRow<const T extends string>(resourceType: T, patientData: boolean) {
  return fhirRoute({
    method: "GET",
    path: `${fhirBasePath}/${resourceType}/:id`,
    summary: `Read a ${resourceType} of the caller's hospital`,
    interaction: "read",
    resourceType,
    patientData,
    params: idParams,
  });
}

function searchRow<const T extends string>(resourceType: T, searchParams: FhirSearchParam[]) {
  return fhirRoute({
    method: "GET",
    path: `${fhirBasePath}/${resourceType}`,
    summary: `Search the ${resourceType} resources of the caller's hospital`,
    interaction: "search-type",
    resourceType,
    patientData: true,
    searchParams: [id, ...searchParams, count],
  });
}

export const fhirReadRoutes = {
  fhirReadPatient: readRow("Patient", true),
  fhirSearchPatient: searchRow("Patient", [
    { name: "identifier", type: "token", documentation: "The MRN as system|value or value" },
    lastUpdated,
  ]),
  fhirReadPractitioner: readRow("Practitioner", false),
  fhirReadServiceRequest: readRow("ServiceRequest", true),
  fhirSearchServiceRequest: searchRow("ServiceRequest", [
    {
      name: "identifier",
      type: "token",
      documentation: "The placer order number or Vigil's case number (filler), as system|value or value",
    },
    patient,
    subject,
    patientIdentifier,
    { name: "status", type: "token" },
    lastUpdated,
  ]),
  fhirReadTask: readRow("Task", true),
  fhirSearchTask: searchRow("Task", [
    { name: "focus", type: "reference", documentation: "ServiceRequest/<id>" },
    { name: "status", type: "token" },
    patient,
    patientIdentifier,
    lastUpdated,
  ]),
  fhirReadDiagnosticReport: readRow("DiagnosticReport", true),
  fhirSearchDiagnosticReport: searchRow("DiagnosticReport", [
    patient,
    subject,
    patientIdentifier,
    { name: "based-on", type: "reference", documentation: "ServiceRequest/<id>" },
    { name: "date", type: "date", documentation: "The period the report interprets; eq, gt, ge, lt, le" },
    { name: "status", type: "token", documentation: "final or amended" },
    lastUpdated,
  ]),
  fhirReadObservation: readRow("Observation", true),
  fhirSearchObservation: searchRow("Observation", [
    patient,
    subject,
    patientIdentifier,
    { name: "based-on", type: "reference", documentation: "ServiceRequest/<id>" },
    lastUpdated,
  ]),
  fhirReadDocumentReference: readRow("DocumentReference", true),
  fhirSearchDocumentReference: searchRow("DocumentReference", [patient, subject, patientIdentifier]),
  fhirReadBinary: readRow("Binary", true),
} as const;
