import { createHash } from "node:crypto";
import { fhirDiagnosticReportSchema } from "@vigil/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { fhirSchemaErrors, sampleReportInputs } from "../../testing/kits/reports-kit.js";
import { buildDiagnosticReport, eegStudyLoinc } from "./report-fhir.js";
import { renderReportPdf } from "./report-pdf.js";

// HL7's FHIR R4 JSON schema with the package's own ajv: every produced resource must pass it.
beforeAll(() => {
  fhirSchemaErrors({ resourceType: "Basic" });
}, 60_000);

function expectValidFhir(resource: unknown): void {
  expect(fhirSchemaErrors(resource)).toEqual([]);
}

describe("the report as a FHIR R4 DiagnosticReport", () => {
  it("is a final neurology report of an EEG study with the patient, performer, interpreter and the PDF", async () => {
    const inputs = sampleReportInputs();
    const pdf = await renderReportPdf(inputs);
    const resource = buildDiagnosticReport({ id: "c0ffee00-0000-4000-8000-000000000001", inputs, pdf: pdf.bytes });
    expectValidFhir(resource);
    expect(fhirDiagnosticReportSchema.parse(resource)).toBeTruthy();
    expect(resource).toMatchObject({
      resourceType: "DiagnosticReport",
      status: "final",
      category: [{ coding: [{ system: "http://terminology.hl7.org/CodeSystem/v2-0074", code: "EN" }] }],
      code: { coding: [eegStudyLoinc] },
      subject: { reference: "#patient" },
      effectivePeriod: { start: inputs.case.recordingStartedAt, end: inputs.case.recordingEndedAt },
      issued: inputs.report.issuedAt,
      performer: [{ reference: "#company", display: "Northwind Neurodiagnostics" }],
      resultsInterpreter: [{ reference: "#interpreter", display: "Dr. Grace Hopper" }],
      conclusion: inputs.interpretation.impression,
    });
    const patient = resource.contained.find((entry) => entry.resourceType === "Patient");
    expect(patient).toMatchObject({
      identifier: [{ system: `urn:uuid:${inputs.client.id}`, value: "MRN-0042", type: { coding: [{ code: "MR" }] } }],
      name: [{ family: "Lovelace", given: ["Ada"] }],
      gender: "female",
      birthDate: "1961-12-10",
    });
    const [form] = resource.presentedForm;
    expect(Buffer.from(form?.data ?? "", "base64").equals(pdf.bytes)).toBe(true);
    expect(form).toMatchObject({
      contentType: "application/pdf",
      size: pdf.bytes.length,
      hash: createHash("sha1").update(pdf.bytes).digest("base64"),
      title: `${inputs.report.title} - CM-2026-000042`,
    });
  });

  it("is amended for an addendum, with the addenda after the impression, and still valid", async () => {
    const inputs = sampleReportInputs({
      report: { ...sampleReportInputs().report, version: 2, kind: "addendum" },
      addenda: [
        {
          text: "The second seizure had a clinical correlate.",
          author: { sub: null, username: "dr-reviewer", name: null },
          createdAt: "2026-11-06T15:30:00.000Z",
        },
      ],
      patient: { ...sampleReportInputs().patient, dateOfBirth: null, sex: "unknown" },
      case: { ...sampleReportInputs().case, recordingStartedAt: null, recordingEndedAt: null },
    });
    const resource = buildDiagnosticReport({
      id: "c0ffee00-0000-4000-8000-000000000002",
      inputs,
      pdf: (await renderReportPdf(inputs)).bytes,
    });
    expectValidFhir(resource);
    expect(resource.status).toBe("amended");
    expect(resource.conclusion).toContain("Addendum 1 (2026-11-06T15:30:00.000Z): The second seizure");
    expect(resource.effectivePeriod).toEqual({
      start: inputs.interpretation.periodFrom,
      end: inputs.interpretation.periodTo,
    });
  });

  it("fails the schema when an element is misspelt, so the check can fail", async () => {
    const inputs = sampleReportInputs();
    const resource = buildDiagnosticReport({ id: "x1", inputs, pdf: (await renderReportPdf(inputs)).bytes });
    expect(fhirSchemaErrors({ ...resource, stauts: "final" }).length).toBeGreaterThan(0);
    expect(fhirSchemaErrors({ ...resource, status: "signed" }).length).toBeGreaterThan(0);
  });
});
