import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reportDisclosures, reportVersions } from "../../db/schema.js";
import { createClient, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { fhirValidationErrors, noFhirErrors } from "../../testing/kits/fhir-validators-kit.js";
import { addAddendum, signedCase } from "../../testing/kits/reports-kit.js";
import { hospitalKey, registerHospitalSystem, systemToken } from "../../testing/kits/smart-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { fhirReadRows } from "./fhir-read-routes.js";

/**
 * The FHIR endpoint's reads and searches through the app, with real SMART tokens of two hospitals: each token reaches
 * only its own hospital's resources, by read and by search, over every type the route table serves.
 */

const readScopes = [
  "system/Patient.rs",
  "system/Practitioner.r",
  "system/ServiceRequest.rs",
  "system/Task.rs",
  "system/DiagnosticReport.rs",
  "system/Observation.rs",
  "system/DocumentReference.rs",
  "system/Binary.r",
];

let harness: TestApp;
let team: Team;
let tokenA: string;
let tokenB: string;
let caseA: string;
let reportA: string;
let versionsA: string[];
let caseB: string;

beforeAll(async () => {
  harness = await createTestApp({ REPORT_COMPANY_NAME: "Northwind Neurodiagnostics" });
  team = await teamFor(harness, "fhir-routes");
  const [clientA, clientB] = [await createClient(team.admin), await createClient(team.admin)];
  const signedA = await signedCase(harness, team, clientA.id);
  await addAddendum(team.reviewer, signedA.caseId, signedA.interpretation, "A clinical correlate.");
  caseA = signedA.caseId;
  reportA = signedA.interpretation.id;
  versionsA = (
    await harness.database.db
      .select({ id: reportVersions.id })
      .from(reportVersions)
      .where(eq(reportVersions.caseId, caseA))
      .orderBy(reportVersions.version)
  ).map((row) => row.id);
  caseB = (await signedCase(harness, team, clientB.id)).caseId;
  const key = await hospitalKey();
  const tokens: string[] = [];
  for (const client of [clientA, clientB]) {
    const system = await registerHospitalSystem(team.admin, client.id, { keys: [key], scopes: readScopes });
    tokens.push(
      await systemToken(harness.app, harness.config.publicUrl, key, system.systemClientId, readScopes.join(" ")),
    );
  }
  [tokenA, tokenB] = tokens as [string, string];
}, 180_000);
afterAll(() => harness.close());

function get(token: string, url: string) {
  return harness.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${token}` } });
}

describe("the FHIR endpoint's reads and searches", () => {
  it("serves hospital A's report, its PDF and its order to A's token, each valid R4, as FHIR JSON", async () => {
    const report = await get(tokenA, `/fhir/R4/DiagnosticReport/${reportA}`);
    expect(report.statusCode, report.body).toBe(200);
    expect(report.headers["content-type"]).toBe("application/fhir+json; charset=utf-8");
    expect(report.headers["cache-control"]).toBe("no-store");
    expect(fhirValidationErrors(report.json())).toEqual(noFhirErrors);
    expect(report.json()).toMatchObject({ id: reportA, status: "amended", meta: { versionId: "2" } });
    const binary = await get(tokenA, `/fhir/R4/Binary/${versionsA[1]}`);
    expect(binary.statusCode, binary.body).toBe(200);
    const [stored] = await harness.database.db
      .select({ pdf: reportVersions.pdf })
      .from(reportVersions)
      .where(eq(reportVersions.id, versionsA[1] ?? ""));
    expect(Buffer.from(binary.json().data, "base64").equals(stored?.pdf as Buffer)).toBe(true);
    const bundle = await get(tokenA, `/fhir/R4/DiagnosticReport?based-on=ServiceRequest/${caseA}&_count=1`);
    expect(bundle.statusCode, bundle.body).toBe(200);
    expect(fhirValidationErrors(bundle.json())).toEqual(noFhirErrors);
    expect(bundle.json()).toMatchObject({ resourceType: "Bundle", type: "searchset", total: 1 });
    expect(bundle.json().link[0].url).toMatch(/\/fhir\/R4\/DiagnosticReport\?based-on=ServiceRequest%2F.*&_count=1$/);
  });

  it("answers a search parameter it does not support with an OperationOutcome 400", async () => {
    const response = await get(tokenA, "/fhir/R4/DiagnosticReport?code=11523-8");
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ resourceType: "OperationOutcome", issue: [{ code: "invalid" }] });
  });

  it("records A's reads in the accounting of disclosures, to A's system", async () => {
    await get(tokenA, `/fhir/R4/Patient/${caseA}`);
    const rows = await harness.database.db
      .select()
      .from(reportDisclosures)
      .where(and(eq(reportDisclosures.caseId, caseA), eq(reportDisclosures.kind, "fhir-api-read")));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.recipient.startsWith("Hospital system "))).toBe(true);
  });

  it("never lets hospital B's token see hospital A's resources, over every type and interaction of the table", async () => {
    const idOfA: Record<string, string> = {
      Patient: caseA,
      Practitioner: team.reviewer2.sub,
      ServiceRequest: caseA,
      Task: caseA,
      DiagnosticReport: reportA,
      Observation: `${reportA}-pattern-1`,
      DocumentReference: versionsA[0] ?? "",
      Binary: versionsA[0] ?? "",
    };
    const queryOfA: Record<string, string> = {
      Patient: `_id=${caseA}`,
      ServiceRequest: `patient=Patient/${caseA}`,
      Task: `focus=ServiceRequest/${caseA}`,
      DiagnosticReport: `patient=Patient/${caseA}`,
      Observation: `patient=Patient/${caseA}`,
      DocumentReference: `patient=${caseA}`,
    };
    let checked = 0;
    for (const [name, row] of fhirReadRows) {
      const type = row.resourceType ?? "";
      if (row.interaction === "read") {
        const url = `/fhir/R4/${type}/${idOfA[type]}`;
        // A reads its own (its reviewer2 signed nothing, so A finds no such Practitioner either).
        expect((await get(tokenA, url)).statusCode, `${name} as A`).toBe(type === "Practitioner" ? 404 : 200);
        const asB = await get(tokenB, url);
        expect(asB.statusCode, `${name} as B`).toBe(404);
        expect(asB.json()).toMatchObject({ resourceType: "OperationOutcome", issue: [{ code: "not-found" }] });
      } else {
        const url = `/fhir/R4/${type}?${queryOfA[type]}`;
        expect((await get(tokenA, url)).json().total, `${name} as A`).toBeGreaterThan(0);
        const asB = await get(tokenB, url);
        expect(asB.statusCode, `${name} as B`).toBe(200);
        expect(asB.json().total, `${name} as B`).toBe(0);
        // B's unfiltered search lists only B's own.
        const all = (await get(tokenB, `/fhir/R4/${type}?_count=100`)).json();
        expect(JSON.stringify(all), `${name}: B's own`).not.toContain(caseA);
      }
      checked += 1;
    }
    expect(checked).toBe(14);
    expect((await get(tokenB, `/fhir/R4/Patient/${caseB}`)).statusCode).toBe(200);
  });
});
