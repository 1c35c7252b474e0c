import { createHash } from "node:crypto";
import { impressionCodes } from "@vigil/contract";
import type { ReportInputs } from "../reports/reports-service.js";
import {
  compact,
  eegStudyLoinc,
  type FhirCodeableConcept,
  type FhirReference,
  type FhirResource,
  type FhirSettings,
  narrativeOf,
  neurologyCategory,
  usCoreProfiles,
  uuidIdentifier,
} from "./fhir-resource-common.js";
import { npiSystem, type PatientFacts, patientReference, practitionerReference } from "./us-core-patient.js";

/**
 * A signed report as a hospital files it: one `DiagnosticReport` per report (id and identifier from the
 * interpretation, so an addendum replaces it: same id, same identifier, status `amended`, `meta.versionId` the
 * version), and per version a `DocumentReference` and a `Binary` with the stored PDF byte for byte (an addendum's
 * DocumentReference `replaces` the previous one, which becomes `superseded`).
 */

/** One stored version of a report and where it stands among its report's versions. */
export type ReportVersionFacts = {
  id: string;
  interpretationId: string;
  version: number;
  kind: "signed" | "addendum";
  issuedAt: string;
  inputs: ReportInputs;
  pdf: Buffer;
  /** The version before this one (an addendum's), whose DocumentReference this one replaces. */
  previousVersionId: string | null;
  /** No later version exists: its DocumentReference is `current`. */
  latest: boolean;
};

/** What the report's case adds: the MRN's authority (the patient's identifier system) and the visit. */
export type ReportCaseFacts = Pick<PatientFacts, "caseId" | "clientId" | "mrnAuthority"> & {
  encounter: FhirReference | undefined;
};

/**
 * SNOMED CT codes for the one structured conclusion the signed data holds: the seizure classification (ACNS 2021).
 * Electrographic and electroclinical seizures are 91175000 |Seizure (finding)|, status epilepticus of either kind
 * 230456007 |Status epilepticus (disorder)|; the text says which (SNOMED CT has no pre-coordinated "electrographic"
 * concept we could verify). "None" and IIC (ictal-interictal continuum) have no code and are left to the text; so are
 * the periodic and rhythmic patterns, whose SNOMED CT concepts we could not verify.
 */
export const seizureConclusions: Record<string, FhirCodeableConcept | undefined> = {
  ESz: {
    coding: [{ system: "http://snomed.info/sct", code: "91175000", display: "Seizure" }],
    text: "Electrographic seizure",
  },
  ECSz: {
    coding: [{ system: "http://snomed.info/sct", code: "91175000", display: "Seizure" }],
    text: "Electroclinical seizure",
  },
  ESE: {
    coding: [{ system: "http://snomed.info/sct", code: "230456007", display: "Status epilepticus" }],
    text: "Electrographic status epilepticus",
  },
  ECSE: {
    coding: [{ system: "http://snomed.info/sct", code: "230456007", display: "Status epilepticus" }],
    text: "Electroclinical status epilepticus",
  },
};

/**
 * The coded impression chosen at signing first (`impressionCodes`), then the seizure classification's concept unless
 * the impression already carries it. Versions signed before impressions were coded have only the second.
 */
export function conclusionCodesOf(inputs: ReportInputs): FhirCodeableConcept[] {
  const chosen = inputs.interpretation.impressionCode ? impressionCodes[inputs.interpretation.impressionCode] : null;
  const impression: FhirCodeableConcept | undefined = chosen
    ? {
        coding: [{ system: "http://snomed.info/sct", code: chosen.snomed, display: chosen.display }],
        text: chosen.label,
      }
    : undefined;
  const seizure = seizureConclusions[inputs.interpretation.seizures.classification];
  const sameConcept = seizure && impression && seizure.coding?.[0]?.code === impression.coding?.[0]?.code;
  return [impression, sameConcept ? undefined : seizure].filter((code): code is FhirCodeableConcept => Boolean(code));
}

function conclusionOf(inputs: ReportInputs): string {
  const impression = inputs.interpretation.impression.trim();
  const addenda = inputs.addenda.map(
    (addendum, index) => `Addendum ${index + 1} (${addendum.createdAt}): ${addendum.text.trim()}`,
  );
  return [impression, ...addenda].filter(Boolean).join("\n\n");
}

/**
 * The period the report interprets: a daily report's own period (the day it reads), the study summary the whole
 * recording (its own period when the recording's times are unknown).
 */
export function effectivePeriodOf(inputs: ReportInputs): { start: string; end: string } {
  const { interpretation } = inputs;
  if (inputs.report.reportType === "daily") return { start: interpretation.periodFrom, end: interpretation.periodTo };
  return {
    start: inputs.case.recordingStartedAt ?? interpretation.periodFrom,
    end: inputs.case.recordingEndedAt ?? interpretation.periodTo,
  };
}

function sha1Base64(pdf: Buffer): string {
  // R4's Attachment.hash is the SHA-1 of the data, base64 (Vigil's own answers carry the stored SHA-256).
  return createHash("sha1").update(pdf).digest("base64");
}

function subjectOf(settings: FhirSettings, version: ReportVersionFacts, facts: ReportCaseFacts): FhirReference {
  const { patient } = version.inputs;
  return patientReference(settings, { mrn: patient.mrn, ...facts }, patient.name);
}

export type DiagnosticReportOptions = {
  /** Also carry the PDF inline (the staff route does; the hospital's API links to `Binary` instead). */
  inlinePdf?: boolean;
  /**
   * `result`: the report's ACNS findings as `Observation/<id>` references. Only where those Observations are served
   * (the hospital's API); the push sends no Observations, so its report must not point at any.
   */
  results?: FhirReference[];
};

export function diagnosticReportResource(
  settings: FhirSettings,
  version: ReportVersionFacts,
  facts: ReportCaseFacts,
  options: DiagnosticReportOptions = {},
): FhirResource {
  const { inputs, pdf } = version;
  const interpreter = practitionerReference(settings, { professional: inputs.signerProfessional, ...inputs.signedBy });
  const conclusion = conclusionOf(inputs);
  const conclusionCode = conclusionCodesOf(inputs);
  const period = effectivePeriodOf(inputs);
  const status = version.kind === "addendum" ? "amended" : "final";
  return compact({
    resourceType: "DiagnosticReport",
    id: version.interpretationId,
    meta: {
      versionId: String(version.version),
      lastUpdated: version.issuedAt,
      profile: [usCoreProfiles.diagnosticReportNote],
    },
    text: narrativeOf(inputs.report.title, [
      ["Status", status],
      ["Patient", `${inputs.patient.name} (MRN ${inputs.patient.mrn})`],
      ["Case", inputs.case.number],
      ["Period", `${period.start} to ${period.end}`],
      ["Interpreted by", interpreter.display],
      ["Conclusion", conclusion],
    ]),
    identifier: [uuidIdentifier(version.interpretationId)],
    basedOn: [{ reference: `ServiceRequest/${facts.caseId}` }],
    status,
    category: [neurologyCategory],
    code: { coding: [{ ...eegStudyLoinc }], text: inputs.report.title },
    subject: subjectOf(settings, version, facts),
    encounter: facts.encounter,
    effectivePeriod: period,
    issued: version.issuedAt,
    performer: [interpreter, companyReference(settings, inputs.company.name)],
    resultsInterpreter: [interpreter],
    result: options.results && options.results.length > 0 ? options.results : undefined,
    conclusion: conclusion || undefined,
    conclusionCode: conclusionCode.length > 0 ? conclusionCode : undefined,
    presentedForm: [
      compact({
        contentType: "application/pdf",
        url: `Binary/${version.id}`,
        data: options.inlinePdf ? pdf.toString("base64") : undefined,
        hash: sha1Base64(pdf),
        size: pdf.length,
        title: `${inputs.report.title} - ${inputs.case.number}`,
        creation: version.issuedAt,
      }),
    ],
  });
}

/** US Core's clinical-note category of a DocumentReference. */
const clinicalNoteCategory: FhirCodeableConcept = {
  coding: [
    {
      system: "http://hl7.org/fhir/us/core/CodeSystem/us-core-documentreference-category",
      code: "clinical-note",
      display: "Clinical Note",
    },
  ],
};

export function documentReferenceResource(
  settings: FhirSettings,
  version: ReportVersionFacts,
  facts: ReportCaseFacts,
): FhirResource {
  const { inputs, pdf } = version;
  const author = practitionerReference(settings, { professional: inputs.signerProfessional, ...inputs.signedBy });
  const title = `${inputs.report.title} - ${inputs.case.number}`;
  return compact({
    resourceType: "DocumentReference",
    id: version.id,
    meta: { versionId: "1", lastUpdated: version.issuedAt, profile: [usCoreProfiles.documentReference] },
    text: narrativeOf(title, [
      ["Version", `${version.version}${version.kind === "addendum" ? " (addendum)" : ""}`],
      ["Patient", `${inputs.patient.name} (MRN ${inputs.patient.mrn})`],
      ["Signed by", author.display],
    ]),
    identifier: [uuidIdentifier(version.id)],
    status: version.latest ? "current" : "superseded",
    docStatus: version.kind === "addendum" ? "amended" : "final",
    type: { coding: [{ ...eegStudyLoinc }], text: inputs.report.title },
    category: [clinicalNoteCategory],
    subject: subjectOf(settings, version, facts),
    date: version.issuedAt,
    author: [author],
    authenticator: author,
    custodian: companyReference(settings, inputs.company.name),
    relatesTo: version.previousVersionId
      ? [{ code: "replaces", target: { reference: `DocumentReference/${version.previousVersionId}` } }]
      : undefined,
    description: title,
    content: [
      {
        attachment: {
          contentType: "application/pdf",
          url: `Binary/${version.id}`,
          size: pdf.length,
          hash: sha1Base64(pdf),
          title,
          creation: version.issuedAt,
        },
        format: {
          system: "http://ihe.net/fhir/ihe.formatcode.fhir/CodeSystem/formatcode",
          code: "urn:ihe:iti:xds:2017:mimeTypeSufficient",
          display: "mimeType Sufficient",
        },
      },
    ],
    context: compact({
      encounter: facts.encounter ? [facts.encounter] : undefined,
      period: effectivePeriodOf(inputs),
      related: [{ reference: `DiagnosticReport/${version.interpretationId}` }],
    }),
  });
}

/** The stored PDF of one version, byte for byte; readable by whoever may read its DocumentReference. */
/**
 * The company as a display-only reference (no Organization is served), named as printed on the report, with its
 * NPI when one is configured so a receiver can look it up in NPPES.
 */
function companyReference(settings: FhirSettings, printedName: string): FhirReference {
  const npi = settings.company.npi;
  return npi ? { display: printedName, identifier: { system: npiSystem, value: npi } } : { display: printedName };
}

export function binaryResource(version: Pick<ReportVersionFacts, "id" | "pdf" | "issuedAt">): FhirResource {
  return {
    resourceType: "Binary",
    id: version.id,
    meta: { versionId: "1", lastUpdated: version.issuedAt },
    contentType: "application/pdf",
    securityContext: { reference: `DocumentReference/${version.id}` },
    data: version.pdf.toString("base64"),
  };
}
