import type { InterpretationItem } from "@vigil/contract";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, reportDisclosures } from "../../db/schema.js";
import { AppError } from "../../errors/app-error.js";
import { createClient, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { fhirValidationErrors, noFhirErrors } from "../../testing/kits/fhir-validators-kit.js";
import { addAddendum, signedCase } from "../../testing/kits/reports-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { type FhirReader, readFhirResource, searchFhirResources } from "./fhir-read-service.js";
import type { FhirResource, FhirSettings } from "./fhir-resource-common.js";

/**
 * The ACNS findings of a signed report as Observations under its DiagnosticReport's `result`: valid R4, resolvable,
 * the same ids after an addendum, searchable and readable only by the report's hospital.
 */

const settings: FhirSettings = { publicUrl: "https://vigil.test", company: { name: "Northwind Neurodiagnostics" } };

let harness: TestApp;
let team: Team;
let hospitalA: FhirReader;
let hospitalB: FhirReader;
let signed: { caseId: string; interpretation: InterpretationItem };
let resultBefore: { reference: string }[];

function reader(clientId: string, name: string): FhirReader {
  return {
    clientId,
    recipient: `Hospital system ${name}-ehr`,
    systemClientId: `${name}-ehr`,
    baseUrl: "https://vigil.test/fhir/R4",
  };
}

const findings = [
  {
    location: "L" as const,
    pattern: "PD" as const,
    plusModifier: "+F" as const,
    prevalence: "frequent" as const,
    duration: "long" as const,
    frequencyHz: 1.5,
    evolution: "static" as const,
    stimulusInduced: false,
    notes: "Left temporal maximum <T7>.",
  },
  {
    location: "G" as const,
    pattern: "RDA" as const,
    plusModifier: "none" as const,
    prevalence: "occasional" as const,
    duration: null,
    frequencyHz: null,
    evolution: "fluctuating" as const,
    stimulusInduced: true,
    notes: "",
  },
];

beforeAll(async () => {
  harness = await createTestApp({ REPORT_COMPANY_NAME: "Northwind Neurodiagnostics" });
  team = await teamFor(harness, "fhir-observations");
  const a = await createClient(team.admin);
  const b = await createClient(team.admin);
  hospitalA = reader(a.id, "mercy");
  hospitalB = reader(b.id, "general");
  signed = await signedCase(harness, team, a.id, {
    findings,
    seizures: { classification: "ESz", count: 3, description: "Left temporal onset, 40-90 s each." },
  });
  const before = await readFhirResource(db(), settings, hospitalA, "DiagnosticReport", signed.interpretation.id);
  resultBefore = before.result as { reference: string }[];
  await addAddendum(team.reviewer, signed.caseId, signed.interpretation, "Seizures confirmed on review.");
  await signedCase(harness, team, b.id);
}, 120_000);
afterAll(() => harness.close());

const db = () => harness.database.db;

type Bundle = { total: number; link: { relation: string; url: string }[]; entry: { resource: FhirResource }[] };

async function search(who: FhirReader, query: Record<string, unknown>): Promise<Bundle> {
  return (await searchFhirResources(db(), settings, who, "Observation", query)) as unknown as Bundle;
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  return "answered";
}

describe("the ACNS findings as Observations", () => {
  it("lists one Observation per finding under result, the same ids before and after the addendum", async () => {
    const report = await readFhirResource(db(), settings, hospitalA, "DiagnosticReport", signed.interpretation.id);
    const id = signed.interpretation.id;
    const references = (report.result as { reference: string }[]).map((entry) => entry.reference);
    expect(references).toEqual([
      `Observation/${id}-pattern-1`,
      `Observation/${id}-pattern-2`,
      `Observation/${id}-seizures`,
    ]);
    expect(resultBefore.map((entry) => entry.reference)).toEqual(references);
    expect(fhirValidationErrors(report)).toEqual(noFhirErrors);
  });

  it("resolves every result reference to a valid R4 Observation of the report: amended, its period and signer", async () => {
    const report = await readFhirResource(db(), settings, hospitalA, "DiagnosticReport", signed.interpretation.id);
    const observations: FhirResource[] = [];
    for (const entry of report.result as { reference: string }[]) {
      const observation = await readFhirResource(
        db(),
        settings,
        hospitalA,
        "Observation",
        entry.reference.replace("Observation/", ""),
      );
      expect(fhirValidationErrors(observation), entry.reference).toEqual(noFhirErrors);
      expect(observation).toMatchObject({
        resourceType: "Observation",
        status: "amended",
        meta: { versionId: "2" },
        category: [{ coding: [{ code: "procedure" }] }],
        subject: report.subject,
        effectivePeriod: report.effectivePeriod,
        performer: [(report.resultsInterpreter as unknown[])[0]],
        basedOn: report.basedOn,
      });
      observations.push(observation);
    }
    const [lpd, grda, seizures] = observations;
    expect(lpd).toMatchObject({ code: { text: "Rhythmic or periodic pattern (ACNS 2021)" } });
    expect(lpd?.valueCodeableConcept).toEqual({ text: "LPDs+F" });
    expect(lpd?.component).toContainEqual({
      code: { text: "Frequency" },
      valueQuantity: { value: 1.5, unit: "Hz", system: "http://unitsofmeasure.org", code: "Hz" },
    });
    expect(JSON.stringify(lpd?.text)).toContain("&lt;T7&gt;");
    expect(grda?.valueCodeableConcept).toEqual({ text: "GRDA" });
    expect(grda?.component).toContainEqual({ code: { text: "Stimulus-induced" }, valueBoolean: true });
    expect(seizures).toMatchObject({
      valueCodeableConcept: { coding: [{ system: "http://snomed.info/sct", code: "91175000" }] },
      component: [{ code: { text: "Number of seizures" }, valueInteger: 3 }],
      note: [{ text: "Left temporal onset, 40-90 s each." }],
    });
  });

  it("searches by patient, MRN, order and last update, and pages by id without repeats", async () => {
    const byPatient = await search(hospitalA, { patient: `Patient/${signed.caseId}` });
    expect(byPatient.total).toBe(3);
    for (const entry of byPatient.entry) expect(fhirValidationErrors(entry.resource)).toEqual(noFhirErrors);
    const mrn = (byPatient.entry[0]?.resource.subject as { identifier: { value: string } }).identifier.value;
    expect((await search(hospitalA, { "patient:identifier": mrn })).total).toBe(3);
    expect((await search(hospitalA, { "based-on": `ServiceRequest/${signed.caseId}` })).total).toBe(3);
    expect((await search(hospitalA, { _lastUpdated: "ge2000-01-01" })).total).toBe(3);
    expect((await search(hospitalA, { _lastUpdated: "lt2000-01-01" })).total).toBe(0);
    const oneId = `${signed.interpretation.id}-seizures`;
    expect((await search(hospitalA, { _id: oneId })).entry.map((entry) => entry.resource.id)).toEqual([oneId]);
    const seen: string[] = [];
    let page = await search(hospitalA, { subject: signed.caseId, _count: "1" });
    for (;;) {
      seen.push(...page.entry.map((entry) => entry.resource.id));
      const next = page.link.find((link) => link.relation === "next");
      if (!next) break;
      const cursor = new URL(next.url).searchParams.get("_cursor");
      page = await search(hospitalA, { subject: signed.caseId, _count: "1", _cursor: cursor });
    }
    expect(seen).toEqual(byPatient.entry.map((entry) => entry.resource.id));
  });

  it("is not found by another hospital, and is disclosed and audited when read", async () => {
    const id = `${signed.interpretation.id}-pattern-1`;
    expect(await refusal(readFhirResource(db(), settings, hospitalB, "Observation", id))).toBe("not_found");
    expect((await search(hospitalB, { patient: signed.caseId })).total).toBe(0);
    expect(
      (await search(hospitalB, {})).entry.every((entry) => !entry.resource.id.startsWith(signed.interpretation.id)),
    ).toBe(true);
    expect(await refusal(readFhirResource(db(), settings, hospitalA, "Observation", `${id}9`))).toBe("not_found");
    await readFhirResource(db(), settings, hospitalA, "Observation", id);
    const disclosed = await db()
      .select()
      .from(reportDisclosures)
      .where(and(eq(reportDisclosures.caseId, signed.caseId), eq(reportDisclosures.kind, "fhir-api-read")));
    expect(disclosed.some((row) => row.recipient === hospitalA.recipient)).toBe(true);
    const audited = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "fhir.read"), eq(auditEvents.targetId, id)));
    expect(audited.map((row) => row.outcome)).toContain("success");
  });
});
