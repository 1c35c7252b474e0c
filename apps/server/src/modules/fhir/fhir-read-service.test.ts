import type { InterpretationItem } from "@vigil/contract";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reportDisclosures, reportVersions } from "../../db/schema.js";
import { AppError } from "../../errors/app-error.js";
import { createClient, openCase, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { fhirValidationErrors, noFhirErrors } from "../../testing/kits/fhir-validators-kit.js";
import { addAddendum, signedCase } from "../../testing/kits/reports-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import type { ReadableType } from "./fhir-read-search.js";
import { type FhirReader, readFhirResource, searchFhirResources } from "./fhir-read-service.js";
import type { FhirResource, FhirSettings } from "./fhir-resource-common.js";

const settings: FhirSettings = { publicUrl: "https://vigil.test", company: { name: "Northwind Neurodiagnostics" } };

let harness: TestApp;
let team: Team;
let hospitalA: FhirReader;
let hospitalB: FhirReader;
/** Hospital A's case with a signed report and an addendum, and a second signed case. */
let caseA: { caseId: string; interpretation: InterpretationItem };
let caseA2: { caseId: string; interpretation: InterpretationItem };
let caseB: { caseId: string; interpretation: InterpretationItem };

function reader(clientId: string, name: string): FhirReader {
  return {
    clientId,
    recipient: `${name} EHR (system ${name}-ehr)`,
    systemClientId: `${name}-ehr`,
    baseUrl: "https://vigil.test/fhir/R4",
  };
}

beforeAll(async () => {
  harness = await createTestApp({ REPORT_COMPANY_NAME: "Northwind Neurodiagnostics" });
  team = await teamFor(harness, "fhir-read");
  const a = await createClient(team.admin);
  const b = await createClient(team.admin);
  hospitalA = reader(a.id, "mercy");
  hospitalB = reader(b.id, "general");
  caseA = await signedCase(harness, team, a.id);
  caseA = {
    ...caseA,
    interpretation: await addAddendum(team.reviewer, caseA.caseId, caseA.interpretation, "A clinical correlate."),
  };
  caseA2 = await signedCase(harness, team, a.id);
  caseB = await signedCase(harness, team, b.id);
}, 120_000);
afterAll(() => harness.close());

const db = () => harness.database.db;

async function versionsOf(caseId: string) {
  return db().select().from(reportVersions).where(eq(reportVersions.caseId, caseId)).orderBy(reportVersions.version);
}

type Bundle = { total: number; link: { relation: string; url: string }[]; entry: { resource: FhirResource }[] };

async function search(who: FhirReader, type: ReadableType, query: Record<string, unknown>): Promise<Bundle> {
  return (await searchFhirResources(db(), settings, who, type, query)) as unknown as Bundle;
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

describe("the hospital's FHIR reads, one client at a time", () => {
  it("reads the report after its addendum as one DiagnosticReport: same id, amended, version 2, valid", async () => {
    const report = await readFhirResource(db(), settings, hospitalA, "DiagnosticReport", caseA.interpretation.id);
    expect(fhirValidationErrors(report)).toEqual(noFhirErrors);
    const versions = await versionsOf(caseA.caseId);
    expect(report).toMatchObject({
      id: caseA.interpretation.id,
      status: "amended",
      meta: { versionId: "2" },
      subject: { reference: `Patient/${caseA.caseId}` },
      basedOn: [{ reference: `ServiceRequest/${caseA.caseId}` }],
      presentedForm: [{ url: `Binary/${versions[1]?.id}` }],
    });
    const bundle = await search(hospitalA, "DiagnosticReport", { patient: caseA.caseId });
    expect(bundle.total).toBe(1);
  });

  it("serves each version's DocumentReference and its PDF byte for byte as a Binary", async () => {
    const [first, second] = await versionsOf(caseA.caseId);
    const older = await readFhirResource(db(), settings, hospitalA, "DocumentReference", first?.id ?? "");
    const newer = await readFhirResource(db(), settings, hospitalA, "DocumentReference", second?.id ?? "");
    for (const resource of [older, newer]) expect(fhirValidationErrors(resource)).toEqual(noFhirErrors);
    expect(older).toMatchObject({ status: "superseded" });
    expect(newer).toMatchObject({
      status: "current",
      relatesTo: [{ code: "replaces", target: { reference: `DocumentReference/${first?.id}` } }],
    });
    const binary = await readFhirResource(db(), settings, hospitalA, "Binary", second?.id ?? "");
    expect(Buffer.from(binary.data as string, "base64").equals(second?.pdf as Buffer)).toBe(true);
  });

  it("finds a patient's reports by the hospital's MRN identifier, and none under another system", async () => {
    const patient = await readFhirResource(db(), settings, hospitalA, "Patient", caseA.caseId);
    expect(fhirValidationErrors(patient, { usCorePatient: true })).toEqual(noFhirErrors);
    const [identifier] = patient.identifier as { system: string; value: string }[];
    const found = await search(hospitalA, "DiagnosticReport", {
      "patient:identifier": `${identifier?.system}|${identifier?.value}`,
    });
    expect(found.entry.map((entry) => entry.resource.id)).toEqual([caseA.interpretation.id]);
    const foreign = await search(hospitalA, "DiagnosticReport", {
      "patient:identifier": `urn:oid:1.2.3|${identifier?.value}`,
    });
    expect(foreign.total).toBe(0);
    const byPatient = await search(hospitalA, "Patient", { identifier: identifier?.value });
    expect(byPatient.entry.map((entry) => entry.resource.id)).toEqual([caseA.caseId]);
  });

  it("keeps the Task and ServiceRequest of a signed case, the Task's output the report", async () => {
    const task = await readFhirResource(db(), settings, hospitalA, "Task", caseA.caseId);
    const request = await readFhirResource(db(), settings, hospitalA, "ServiceRequest", caseA.caseId);
    for (const resource of [task, request]) expect(fhirValidationErrors(resource)).toEqual(noFhirErrors);
    expect(task).toMatchObject({
      focus: { reference: `ServiceRequest/${caseA.caseId}` },
      output: [{ valueReference: { reference: `DiagnosticReport/${caseA.interpretation.id}` } }],
    });
    const byFocus = await search(hospitalA, "Task", { focus: `ServiceRequest/${caseA.caseId}`, status: task.status });
    expect(byFocus.entry.map((entry) => entry.resource.id)).toEqual([caseA.caseId]);
    const caseNumber = (request.identifier as { value: string }[]).at(-1)?.value;
    const byNumber = await search(hospitalA, "ServiceRequest", { identifier: caseNumber });
    expect(byNumber.entry.map((entry) => entry.resource.id)).toEqual([caseA.caseId]);
  });

  it("moves a new order's Task from requested to accepted when a technologist is assigned, searchable by status", async () => {
    const opened = await openCase(team.coordinator, hospitalA.clientId);
    const statusOf = async () => (await readFhirResource(db(), settings, hospitalA, "Task", opened.id)).status;
    expect(await statusOf()).toBe("requested");
    const requested = await search(hospitalA, "Task", { status: "requested" });
    expect(requested.entry.map((entry) => entry.resource.id)).toContain(opened.id);
    const assigned = await team.coordinator("POST", `/cases/${opened.id}/actions`, {
      body: { action: "assign-technologist", technologistId: team.technologist.sub },
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(await statusOf()).toBe("accepted");
    const accepted = await search(hospitalA, "Task", { status: "accepted", _id: opened.id });
    expect(accepted.total).toBe(1);
    expect((await search(hospitalA, "Task", { status: "requested", _id: opened.id })).total).toBe(0);
    const order = await search(hospitalA, "ServiceRequest", { status: "active", _id: opened.id });
    expect(order.total).toBe(1);
  });

  it("pages with a stable cursor: _count=1 walks both reports once, the next link carrying the search", async () => {
    const first = await search(hospitalA, "DiagnosticReport", { _count: "1" });
    expect(first.total).toBe(2);
    const next = first.link.find((link) => link.relation === "next")?.url ?? "";
    expect(next).toContain("_count=1");
    const cursor = new URL(next).searchParams.get("_cursor");
    const second = await search(hospitalA, "DiagnosticReport", { _count: "1", _cursor: cursor });
    expect(second.link.some((link) => link.relation === "next")).toBe(false);
    const ids = [...first.entry, ...second.entry].map((entry) => entry.resource.id).sort();
    expect(ids).toEqual([caseA.interpretation.id, caseA2.interpretation.id].sort());
  });

  it("filters reports by date, status and _lastUpdated", async () => {
    const amended = await search(hospitalA, "DiagnosticReport", { status: "amended" });
    expect(amended.entry.map((entry) => entry.resource.id)).toEqual([caseA.interpretation.id]);
    expect((await search(hospitalA, "DiagnosticReport", { date: "le1999-01-01" })).total).toBe(0);
    expect((await search(hospitalA, "DiagnosticReport", { date: "ge1999-01-01" })).total).toBe(2);
    expect((await search(hospitalA, "DiagnosticReport", { _lastUpdated: "gt2999-01-01" })).total).toBe(0);
  });

  it("refuses an unknown parameter, a malformed date, a foreign status and a forged cursor with 400", async () => {
    for (const query of [
      { name: "Ada" },
      { date: "yesterday" },
      { date: "ap2026-11-05" },
      { status: "preliminary" },
      { _cursor: "bm90LWEtdXVpZA" },
      { _count: "-1" },
    ]) {
      expect(await refusal(search(hospitalA, "DiagnosticReport", query)), JSON.stringify(query)).toBe("bad_request");
    }
  });

  it("records each read of patient data in the accounting of disclosures, to the hospital's system", async () => {
    await readFhirResource(db(), settings, hospitalA, "Patient", caseA2.caseId);
    const rows = await db()
      .select()
      .from(reportDisclosures)
      .where(and(eq(reportDisclosures.caseId, caseA2.caseId), eq(reportDisclosures.kind, "fhir-api-read")));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0]).toMatchObject({ recipient: hospitalA.recipient, bySub: null });
  });

  it("never shows hospital A's resources to hospital B, by read or by search: not found, not forbidden", async () => {
    const versions = await versionsOf(caseA.caseId);
    const idsOfA: Record<Exclude<ReadableType, "Practitioner">, string> = {
      Patient: caseA.caseId,
      ServiceRequest: caseA.caseId,
      Task: caseA.caseId,
      DiagnosticReport: caseA.interpretation.id,
      Observation: `${caseA.interpretation.id}-pattern-1`,
      DocumentReference: versions[0]?.id ?? "",
      Binary: versions[0]?.id ?? "",
    };
    // A neurologist is readable by every hospital whose reports they signed (here both); one who signed none of a
    // hospital's is not found by it.
    expect(await refusal(readFhirResource(db(), settings, hospitalB, "Practitioner", team.reviewer.sub))).toBe(
      "answered",
    );
    expect(await refusal(readFhirResource(db(), settings, hospitalB, "Practitioner", team.reviewer2.sub))).toBe(
      "not_found",
    );
    for (const [type, id] of Object.entries(idsOfA) as [ReadableType, string][]) {
      expect(await refusal(readFhirResource(db(), settings, hospitalA, type, id)), type).toBe("answered");
      expect(await refusal(readFhirResource(db(), settings, hospitalB, type, id)), type).toBe("not_found");
    }
    const searches: [ReadableType, Record<string, unknown>][] = [
      ["Patient", { _id: caseA.caseId }],
      ["ServiceRequest", { patient: caseA.caseId }],
      ["Task", { focus: caseA.caseId }],
      ["DiagnosticReport", { patient: caseA.caseId }],
      ["DiagnosticReport", { "based-on": caseA.caseId }],
      ["DocumentReference", { patient: caseA.caseId }],
      ["Observation", { patient: caseA.caseId }],
      ["Observation", { "based-on": caseA.caseId }],
    ];
    for (const [type, query] of searches) {
      expect((await search(hospitalA, type, query)).total, type).toBeGreaterThan(0);
      expect((await search(hospitalB, type, query)).total, type).toBe(0);
    }
    const everythingB = await search(hospitalB, "DiagnosticReport", {});
    expect(everythingB.entry.map((entry) => entry.resource.id)).toEqual([caseB.interpretation.id]);
  });
});
