import { createHash } from "node:crypto";
import type { FhirDiagnosticReport } from "@vigil/contract";
import type { ReportInputs } from "./report-inputs.js";

/**
 * A report version as a FHIR R4 DiagnosticReport (`application/fhir+json`), built from the version's stored inputs and
 * PDF, so it says exactly what the delivered document says. The patient, the monitoring company and the signing
 * neurologist travel as contained resources: the receiving system has no Vigil ids to resolve.
 */

/**
 * LOINC 11523-8 "EEG study" (Find, Pt, ^Patient, Doc; class NEURO): the document code for an EEG study report. We
 * could not read it on loinc.org itself from here; it is corroborated by a copy of LOINC 2.82's table, by HL7's
 * clinical-reports attachment mapping (EEG → 11523-8) and by published FHIR profiles that fix it for EEG. Check it
 * against loinc.org before a receiving system depends on it.
 */
export const eegStudyLoinc = { system: "http://loinc.org", code: "11523-8", display: "EEG study" } as const;

/** HL7 v2 table 0074 (diagnostic service section): EN, Electroneuro (EEG, EMG, EP, PSG) — neurology's section. */
const neurologyCategory = {
  coding: [{ system: "http://terminology.hl7.org/CodeSystem/v2-0074", code: "EN", display: "Electroneuro" }],
  text: "Neurology",
};

const genders = { female: "female", male: "male", other: "other", unknown: "unknown" } as const;

function conclusionOf(inputs: ReportInputs): string {
  const impression = inputs.interpretation.impression.trim();
  const addenda = inputs.addenda.map(
    (addendum, index) => `Addendum ${index + 1} (${addendum.createdAt}): ${addendum.text.trim()}`,
  );
  return [impression, ...addenda].filter(Boolean).join("\n\n");
}

export function buildDiagnosticReport(version: {
  id: string;
  inputs: ReportInputs;
  pdf: Buffer;
}): FhirDiagnosticReport {
  const { inputs, pdf } = version;
  const { patient } = inputs;
  const start = inputs.case.recordingStartedAt ?? inputs.interpretation.periodFrom;
  const end = inputs.case.recordingEndedAt ?? inputs.interpretation.periodTo;
  const interpreter = inputs.signedBy.name ?? inputs.signedBy.username;
  const conclusion = conclusionOf(inputs);
  return {
    resourceType: "DiagnosticReport",
    id: version.id,
    contained: [
      {
        resourceType: "Patient",
        id: "patient",
        identifier: [
          {
            use: "usual",
            type: {
              coding: [
                {
                  system: "http://terminology.hl7.org/CodeSystem/v2-0203",
                  code: "MR",
                  display: "Medical record number",
                },
              ],
            },
            // The client's own MRN namespace: MRNs are numbers of one hospital, and the client's id never changes.
            system: `urn:uuid:${inputs.client.id}`,
            value: patient.mrn,
            assigner: { display: inputs.client.name },
          },
        ],
        name: [{ text: patient.name, family: patient.lastName, given: [patient.firstName] }],
        gender: genders[patient.sex],
        ...(patient.dateOfBirth ? { birthDate: patient.dateOfBirth } : {}),
      },
      { resourceType: "Organization", id: "company", name: inputs.company.name },
      {
        resourceType: "Practitioner",
        id: "interpreter",
        name: [{ text: interpreter }],
      },
    ],
    identifier: [{ system: "urn:ietf:rfc:3986", value: `urn:uuid:${version.id}` }],
    status: inputs.report.kind === "addendum" ? "amended" : "final",
    category: [neurologyCategory],
    code: { coding: [{ ...eegStudyLoinc }], text: inputs.report.title },
    subject: { reference: "#patient", display: patient.name },
    effectivePeriod: { start, end },
    issued: inputs.report.issuedAt,
    performer: [{ reference: "#company", display: inputs.company.name }],
    resultsInterpreter: [{ reference: "#interpreter", display: interpreter }],
    ...(conclusion ? { conclusion } : {}),
    presentedForm: [
      {
        contentType: "application/pdf",
        data: pdf.toString("base64"),
        // R4's Attachment.hash is the SHA-1 of the data, base64 (the stored SHA-256 is in Vigil's own answers).
        hash: createHash("sha1").update(pdf).digest("base64"),
        size: pdf.length,
        title: `${inputs.report.title} - ${inputs.case.number}`,
        creation: inputs.report.issuedAt,
      },
    ],
  };
}
