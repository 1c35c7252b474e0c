import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import {
  fhirPackageErrors,
  fhirValidationErrors,
  medplumErrors,
  noFhirErrors,
} from "../../testing/kits/fhir-validators-kit.js";
import { sampleReportInputs } from "../../testing/kits/reports-kit.js";
import type { ReportInputs } from "../reports/reports-service.js";
import { type FhirSettings, hospitalSystem, usCoreProfiles } from "./fhir-resource-common.js";
import { type CaseFacts, serviceRequestResource, taskResource, taskStatusOf } from "./fhir-resource-order.js";
import { encounterReference, humanNameOf, patientResource, practitionerResource } from "./us-core-patient.js";
import {
  binaryResource,
  diagnosticReportResource,
  documentReferenceResource,
  type ReportCaseFacts,
  type ReportVersionFacts,
} from "./us-core-report.js";

const settings: FhirSettings = {
  publicUrl: "https://vigil.example.org",
  company: { name: "Northwind Neurodiagnostics" },
};
const clientId = "7b0c1e52-8f57-4c1f-9d7e-2a1f4f0b6c11";
const caseId = "5a2c0e6b-1d3f-4e8a-9b7c-6d5e4f3a2b10";
const signerSub = "3f9d2c1b-5a4e-4d6f-8b7a-1c2d3e4f5a6b";

// The mappers never read the bytes, only carry, hash and measure them (the stored PDF is tested in reports).
const pdf = Buffer.from("%PDF-1.7\n% a stored report's bytes\n%%EOF\n", "latin1");
beforeAll(() => {
  medplumErrors({ resourceType: "Basic", code: { text: "warm-up" } });
}, 60_000);

function caseFacts(overrides: Partial<CaseFacts> = {}): CaseFacts {
  return {
    caseId,
    clientId,
    clientName: "Mercy General Hospital",
    mrn: "MRN-0042",
    mrnAuthority: "2.16.840.1.113883.3.4242",
    firstName: "Ada",
    lastName: "Lovelace",
    dateOfBirth: "1961-12-10",
    sex: "female",
    updatedAt: "2026-11-06T10:00:00.000Z",
    caseNumber: "CM-2026-000042",
    stage: "monitoring",
    priority: "stat",
    studyTypeLabel: "Continuous EEG monitoring (ICU)",
    hasVideo: true,
    taken: true,
    archivedAt: null,
    recordingStartedAt: "2026-11-05T08:00:00.000Z",
    recordingEndedAt: null,
    createdAt: "2026-11-05T06:00:00.000Z",
    referringPhysician: "Dr. Pierce",
    indication: "Altered mental status after cardiac arrest",
    order: {
      placerOrderNumber: "ORD-77",
      visitNumber: "V-9001",
      orderingProvider: "Pierce, Hawkeye",
      reason: "Rule out non-convulsive status epilepticus",
      receivedAt: "2026-11-05T06:00:00.000Z",
      cancelledAt: null,
      cancelReason: null,
    },
    reports: [],
    ...overrides,
  };
}

const reportCase: ReportCaseFacts = {
  caseId,
  clientId,
  mrnAuthority: "2.16.840.1.113883.3.4242",
  encounter: encounterReference(settings, clientId, "V-9001"),
};

function signedInputs(overrides: Partial<ReportInputs> = {}): ReportInputs {
  return sampleReportInputs({
    signedBy: { sub: signerSub, username: "dr-hopper", name: "Dr. Grace Hopper, MD" },
    ...overrides,
  });
}

function versionOf(inputs: ReportInputs, overrides: Partial<ReportVersionFacts> = {}): ReportVersionFacts {
  return {
    id: "c0ffee00-0000-4000-8000-000000000001",
    interpretationId: inputs.report.interpretationId,
    version: inputs.report.version,
    kind: inputs.report.kind,
    issuedAt: inputs.report.issuedAt,
    inputs,
    pdf,
    previousVersionId: null,
    latest: true,
    ...overrides,
  };
}

function addendumInputs(): ReportInputs {
  const original = signedInputs();
  return signedInputs({
    report: { ...original.report, version: 2, kind: "addendum", issuedAt: "2026-11-06T15:30:00.000Z" },
    addenda: [
      {
        text: "The second seizure had a clinical correlate.",
        author: original.signedBy,
        createdAt: "2026-11-06T15:30:00.000Z",
      },
    ],
  });
}

const emptyProfessional = {
  familyName: null,
  givenNames: [],
  npi: null,
  credentials: null,
  boardCertifications: [],
};

describe("the resources a hospital's system reads", () => {
  it("serves a US Core Patient with the hospital's MRN under its assigning authority, valid for three validators", () => {
    const patient = patientResource(settings, caseFacts());
    expect(fhirValidationErrors(patient, { usCorePatient: true })).toEqual(noFhirErrors);
    expect(patient).toMatchObject({
      id: caseId,
      meta: { profile: [usCoreProfiles.patient] },
      identifier: [
        { system: "urn:oid:2.16.840.1.113883.3.4242", value: "MRN-0042", type: { coding: [{ code: "MR" }] } },
      ],
      name: [{ family: "Lovelace", given: ["Ada"] }],
      gender: "female",
      birthDate: "1961-12-10",
    });
    expect(JSON.stringify(patient)).not.toContain("urn:uuid:");
  });

  it("fails US Core Patient without a gender, a misspelt element or a code outside R4, so the checks can fail", () => {
    const { gender: _gender, ...patient } = patientResource(settings, caseFacts());
    expect(medplumErrors(patient, { usCorePatient: true }).length).toBeGreaterThan(0);
    expect(medplumErrors({ ...patientResource(settings, caseFacts()), gendr: "female" }).length).toBeGreaterThan(0);
    expect(fhirPackageErrors({ ...patientResource(settings, caseFacts()), gender: "f" }).length).toBeGreaterThan(0);
  });

  it("derives one identifier system per rule: OID, URI, or Vigil's URL for the client", () => {
    expect(hospitalSystem(settings, clientId, "mrn", "1.2.840.114350")).toBe("urn:oid:1.2.840.114350");
    expect(hospitalSystem(settings, clientId, "mrn", "https://mercy.example.org/mrn")).toBe(
      "https://mercy.example.org/mrn",
    );
    expect(hospitalSystem(settings, clientId, "mrn", "MERCY")).toBe(
      `https://vigil.example.org/fhir/sid/clients/${clientId}/mrn`,
    );
    expect(hospitalSystem(settings, clientId, "mrn", null)).toBe(hospitalSystem(settings, clientId, "mrn", "MRN"));
    expect(hospitalSystem(settings, "other-client", "mrn", "MERCY")).not.toBe(
      hospitalSystem(settings, clientId, "mrn", "MERCY"),
    );
  });

  it("serves the signing neurologist as a US Core Practitioner with a family name and an identifier", () => {
    const practitioner = practitionerResource(settings, {
      sub: signerSub,
      username: "dr-hopper",
      name: "Dr. Grace Brewster Hopper, MD",
    });
    expect(fhirValidationErrors(practitioner)).toEqual(noFhirErrors);
    expect(practitioner).toMatchObject({
      meta: { profile: [usCoreProfiles.practitioner] },
      identifier: [{ system: "https://vigil.example.org/fhir/sid/users", value: "dr-hopper" }],
      name: [{ family: "Hopper", given: ["Grace", "Brewster"], prefix: ["Dr."], suffix: ["MD"] }],
    });
    expect(humanNameOf("Hopper")).toEqual({ text: "Hopper", family: "Hopper" });
  });

  it("gives a Practitioner with professional details the NPI, the name in parts and the certifications", () => {
    const practitioner = practitionerResource(settings, {
      sub: signerSub,
      username: "dr-hopper",
      name: "Dr. Grace Hopper",
      professional: {
        familyName: "Hopper",
        givenNames: ["Grace", "Brewster"],
        npi: "1234567893",
        credentials: "MD, PhD",
        boardCertifications: ["ABPN Neurology"],
      },
    });
    expect(fhirValidationErrors(practitioner)).toEqual(noFhirErrors);
    expect(practitioner).toMatchObject({
      identifier: [
        { system: "http://hl7.org/fhir/sid/us-npi", value: "1234567893" },
        { system: "https://vigil.example.org/fhir/sid/users", value: "dr-hopper" },
      ],
      name: [{ use: "official", family: "Hopper", given: ["Grace", "Brewster"], suffix: ["MD", "PhD"] }],
      qualification: [{ code: { text: "ABPN Neurology" } }],
    });
    expect((practitioner.text as { div: string }).div).toContain("1234567893");
    const report = diagnosticReportResource(
      settings,
      versionOf({ ...signedInputs(), signerProfessional: { ...emptyProfessional, npi: "1234567893" } }),
      reportCase,
    );
    expect(fhirValidationErrors(report)).toEqual(noFhirErrors);
    expect(report.resultsInterpreter).toEqual([
      expect.objectContaining({ identifier: { system: "http://hl7.org/fhir/sid/us-npi", value: "1234567893" } }),
    ]);
  });

  it("codes the impression chosen at signing first, and the seizure concept once", () => {
    const coded = (impressionCode: ReportInputs["interpretation"]["impressionCode"]) => {
      const inputs = signedInputs();
      return diagnosticReportResource(
        settings,
        versionOf({ ...inputs, interpretation: { ...inputs.interpretation, impressionCode } }),
        reportCase,
      );
    };
    const abnormal = coded("abnormal");
    expect(fhirValidationErrors(abnormal)).toEqual(noFhirErrors);
    expect(abnormal.conclusionCode).toEqual([
      {
        coding: [{ system: "http://snomed.info/sct", code: "263654008", display: "Abnormal (qualifier value)" }],
        text: "Abnormal EEG",
      },
      expect.objectContaining({ coding: [expect.objectContaining({ code: "91175000" })] }),
    ]);
    // The sample's seizures are ESz: an impression of electrographic seizures carries that concept once.
    expect(coded("electrographic-seizure").conclusionCode).toEqual([
      expect.objectContaining({
        coding: [expect.objectContaining({ code: "91175000" })],
        text: "Electrographic seizures",
      }),
    ]);
    expect((coded("normal").conclusionCode as unknown[])[0]).toMatchObject({ coding: [{ code: "17621005" }] });
  });

  it("serves a daily report as a US Core DiagnosticReport: no contained patient, the day it reads, coded, linked", () => {
    const inputs = signedInputs();
    const report = diagnosticReportResource(settings, versionOf(inputs), reportCase);
    expect(fhirValidationErrors(report)).toEqual(noFhirErrors);
    expect(report).not.toHaveProperty("contained");
    expect(report).toMatchObject({
      id: inputs.report.interpretationId,
      meta: { versionId: "1", profile: [usCoreProfiles.diagnosticReportNote] },
      identifier: [{ system: "urn:ietf:rfc:3986", value: `urn:uuid:${inputs.report.interpretationId}` }],
      status: "final",
      code: { coding: [{ system: "http://loinc.org", code: "11523-8" }] },
      basedOn: [{ reference: `ServiceRequest/${caseId}` }],
      subject: { reference: `Patient/${caseId}`, identifier: { system: "urn:oid:2.16.840.1.113883.3.4242" } },
      encounter: { identifier: { value: "V-9001", type: { coding: [{ code: "VN" }] } } },
      // The day the daily report interprets, not the whole recording (05 08:00 → 06 09:00).
      effectivePeriod: { start: "2026-11-05T08:00:00Z", end: "2026-11-06T08:00:00Z" },
      resultsInterpreter: [{ reference: `Practitioner/${signerSub}`, display: "Dr. Grace Hopper, MD" }],
      conclusionCode: [{ coding: [{ system: "http://snomed.info/sct", code: "91175000" }] }],
      presentedForm: [
        {
          contentType: "application/pdf",
          url: "Binary/c0ffee00-0000-4000-8000-000000000001",
          size: pdf.length,
          hash: createHash("sha1").update(pdf).digest("base64"),
        },
      ],
    });
    const text = report.text as { status: string; div: string };
    expect(text.status).toBe("generated");
    expect(text.div).toContain("Lovelace, Ada");
    expect(report.presentedForm).not.toContainEqual(expect.objectContaining({ data: expect.anything() }));
  });

  it("makes an addendum the same DiagnosticReport, amended, on the same id and identifier", () => {
    const original = diagnosticReportResource(settings, versionOf(signedInputs()), reportCase);
    const addendum = diagnosticReportResource(
      settings,
      versionOf(addendumInputs(), { id: "c0ffee00-0000-4000-8000-000000000002" }),
      reportCase,
      { inlinePdf: true },
    );
    expect(fhirValidationErrors(addendum)).toEqual(noFhirErrors);
    expect(addendum.id).toBe(original.id);
    expect(addendum.identifier).toEqual(original.identifier);
    expect(addendum).toMatchObject({ status: "amended", meta: { versionId: "2" } });
    expect(addendum.conclusion).toContain("Addendum 1 (2026-11-06T15:30:00.000Z): The second seizure");
    const [form] = addendum.presentedForm as { data: string; url: string }[];
    expect(Buffer.from(form?.data ?? "", "base64").equals(pdf)).toBe(true);
    expect(form?.url).toBe("Binary/c0ffee00-0000-4000-8000-000000000002");
  });

  it("gives the study summary the whole recording as its period, and no code where nothing is coded", () => {
    const base = signedInputs();
    const inputs = signedInputs({
      report: { ...base.report, reportType: "summary" },
      interpretation: { ...base.interpretation, seizures: { classification: "none", count: null, description: "" } },
    });
    const report = diagnosticReportResource(settings, versionOf(inputs), reportCase);
    expect(fhirValidationErrors(report)).toEqual(noFhirErrors);
    expect(report.effectivePeriod).toEqual({ start: "2026-11-05T08:00:00.000Z", end: "2026-11-06T09:00:00.000Z" });
    expect(report).not.toHaveProperty("conclusionCode");
  });

  it("escapes the narrative: a name with markup stays text", () => {
    const base = signedInputs();
    const inputs = signedInputs({ patient: { ...base.patient, name: "O'Brien <script>alert(1)</script> & Co" } });
    const report = diagnosticReportResource(settings, versionOf(inputs), reportCase);
    expect(fhirValidationErrors(report)).toEqual(noFhirErrors);
    const div = (report.text as { div: string }).div;
    expect(div).not.toContain("<script>");
    expect(div).toContain("&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co");
  });

  it("identifies the company as performer and custodian by its NPI when one is configured, and not otherwise", () => {
    // 1234567893: CMS's worked example of the NPI check digit.
    const withNpi: FhirSettings = { ...settings, company: { ...settings.company, npi: "1234567893" } };
    const report = diagnosticReportResource(withNpi, versionOf(signedInputs()), reportCase);
    const document = documentReferenceResource(withNpi, versionOf(signedInputs()), reportCase);
    for (const resource of [report, document]) expect(fhirValidationErrors(resource)).toEqual(noFhirErrors);
    const company = { identifier: { system: "http://hl7.org/fhir/sid/us-npi", value: "1234567893" } };
    expect(report.performer).toContainEqual(expect.objectContaining(company));
    expect(document.custodian).toMatchObject(company);
    const without = diagnosticReportResource(settings, versionOf(signedInputs()), reportCase);
    expect(without.performer).toContainEqual({ display: settings.company.name });
  });

  it("serves each version as a US Core DocumentReference; an addendum's replaces the one before", () => {
    const first = documentReferenceResource(settings, versionOf(signedInputs(), { latest: false }), reportCase);
    const second = documentReferenceResource(
      settings,
      versionOf(addendumInputs(), {
        id: "c0ffee00-0000-4000-8000-000000000002",
        previousVersionId: "c0ffee00-0000-4000-8000-000000000001",
      }),
      reportCase,
    );
    for (const resource of [first, second]) expect(fhirValidationErrors(resource)).toEqual(noFhirErrors);
    expect(first).toMatchObject({ status: "superseded", docStatus: "final" });
    expect(second).toMatchObject({
      meta: { profile: [usCoreProfiles.documentReference] },
      status: "current",
      docStatus: "amended",
      type: { coding: [{ code: "11523-8" }] },
      category: [{ coding: [{ code: "clinical-note" }] }],
      relatesTo: [
        { code: "replaces", target: { reference: "DocumentReference/c0ffee00-0000-4000-8000-000000000001" } },
      ],
      content: [
        {
          attachment: {
            contentType: "application/pdf",
            url: "Binary/c0ffee00-0000-4000-8000-000000000002",
            hash: createHash("sha1").update(pdf).digest("base64"),
            size: pdf.length,
          },
        },
      ],
      context: { related: [{ reference: `DiagnosticReport/${signedInputs().report.interpretationId}` }] },
    });
  });

  it("serves the PDF as a Binary, byte for byte", () => {
    const binary = binaryResource({
      id: "c0ffee00-0000-4000-8000-000000000001",
      pdf,
      issuedAt: "2026-11-06T10:00:00Z",
    });
    expect(fhirValidationErrors(binary)).toEqual(noFhirErrors);
    expect(Buffer.from(binary.data as string, "base64").equals(pdf)).toBe(true);
  });

  it("serves the order as a ServiceRequest with the placer's and Vigil's identifiers, stat, coded", () => {
    const request = serviceRequestResource(settings, caseFacts(), reportCase.encounter);
    expect(fhirValidationErrors(request)).toEqual(noFhirErrors);
    expect(request).toMatchObject({
      id: caseId,
      status: "active",
      intent: "order",
      priority: "stat",
      code: { coding: [{ system: "http://loinc.org", code: "11523-8" }, { system: "http://snomed.info/sct" }] },
      identifier: [
        { type: { coding: [{ code: "PLAC" }] }, value: "ORD-77" },
        {
          type: { coding: [{ code: "FILL" }] },
          system: "https://vigil.example.org/fhir/sid/case-number",
          value: "CM-2026-000042",
        },
      ],
      requester: { display: "Pierce, Hawkeye" },
      reasonCode: [{ text: "Rule out non-convulsive status epilepticus" }],
      subject: { reference: `Patient/${caseId}` },
    });
  });

  it("keeps the Task in step with the case, its output the signed reports", () => {
    const statuses = [
      taskStatusOf(caseFacts({ stage: "intake", taken: false })),
      taskStatusOf(caseFacts({ stage: "intake" })),
      taskStatusOf(caseFacts({ stage: "preview" })),
      taskStatusOf(caseFacts({ reports: [{ id: "r1", reportType: "summary" }] })),
      taskStatusOf(caseFacts({ stage: "closed" })),
      taskStatusOf(caseFacts({ stage: "intake", archivedAt: "2026-11-05T07:00:00Z" })),
      taskStatusOf(caseFacts({ archivedAt: "2026-11-05T07:00:00Z" })),
    ];
    expect(statuses).toEqual([
      "requested",
      "accepted",
      "in-progress",
      "completed",
      "completed",
      "rejected",
      "cancelled",
    ]);
    const done = taskResource(
      settings,
      caseFacts({
        stage: "reviewed",
        reports: [
          { id: "interp-1", reportType: "daily" },
          { id: "interp-2", reportType: "summary" },
        ],
      }),
      reportCase.encounter,
    );
    expect(fhirValidationErrors(done)).toEqual(noFhirErrors);
    expect(done).toMatchObject({
      status: "completed",
      intent: "order",
      focus: { reference: `ServiceRequest/${caseId}` },
      for: { reference: `Patient/${caseId}` },
      output: [
        { valueReference: { reference: "DiagnosticReport/interp-1" } },
        { valueReference: { reference: "DiagnosticReport/interp-2" } },
      ],
    });
    const cancelled = taskResource(
      settings,
      caseFacts({
        order: {
          ...(caseFacts().order as NonNullable<CaseFacts["order"]>),
          cancelledAt: "2026-11-05T09:00:00Z",
          cancelReason: "Discharged",
        },
      }),
      undefined,
    );
    expect(fhirValidationErrors(cancelled)).toEqual(noFhirErrors);
    expect(cancelled).toMatchObject({ status: "cancelled", statusReason: { text: "Discharged" } });
  });
});
