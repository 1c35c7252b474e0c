import type { AddressInfo } from "node:net";
import type { Case, InterpretationItem, Client as VigilClient } from "@vigil/contract";
import { eq } from "drizzle-orm";
import { Client } from "fhir-kit-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reportVersions } from "../../db/schema.js";
import { createClient, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { fhirValidationErrors, noFhirErrors } from "../../testing/kits/fhir-validators-kit.js";
import { collectionOf, itemPath, sampleInterpretation } from "../../testing/kits/records-kit.js";
import { type HospitalKey, hospitalKey, registerHospitalSystem, signAssertion } from "../../testing/kits/smart-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

/**
 * The hospital's system played by `fhir-kit-client` over HTTP, with a key pair made by `jose`: it finds the token
 * endpoint in the SMART configuration, gets a token, creates the order and its Task, and reads the Task while Vigil's
 * staff take the case through their own API to a signed study summary; then it fetches the report and its PDF.
 */

const scopes = "system/ServiceRequest.c system/Task.cr system/DiagnosticReport.r system/Binary.r";
let harness: TestApp;
let team: Team;
let client: VigilClient;
let key: HospitalKey;
let systemClientId: string;
let origin: string;

beforeAll(async () => {
  harness = await createTestApp({ REPORT_COMPANY_NAME: "Northwind Neurodiagnostics" });
  team = await teamFor(harness, "fhir-kit");
  client = await createClient(team.admin);
  key = await hospitalKey("ES384");
  const system = await registerHospitalSystem(team.admin, client.id, { keys: [key], scopes: scopes.split(" ") });
  systemClientId = system.systemClientId;
  await harness.app.listen({ host: "127.0.0.1", port: 0 });
  origin = `http://127.0.0.1:${(harness.app.server.address() as AddressInfo).port}`;
}, 180_000);
afterAll(() => harness.close());

async function ok<T>(response: Promise<{ statusCode: number; body: string; json: () => { data: T } }>, status = 200) {
  const settled = await response;
  expect(settled.statusCode, settled.body).toBe(status);
  return settled.json().data;
}

describe("a hospital system built on fhir-kit-client", () => {
  it("orders long-term EEG, follows the Task to completed and fetches the signed report's PDF", async () => {
    const fhir = new Client({ baseUrl: `${origin}/fhir/R4` });
    const { tokenUrl } = await fhir.smartAuthMetadata();
    expect(tokenUrl?.toString()).toBe(`${harness.config.publicUrl}/fhir/auth/token`);
    // The assertion's audience is the token URL Vigil publishes; the request goes to this test's listening address.
    const answer = await fetch(`${origin}${new URL(String(tokenUrl)).pathname}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
        client_assertion: await signAssertion(key, systemClientId, String(tokenUrl)),
        scope: scopes,
      }),
    });
    expect(answer.status).toBe(200);
    fhir.bearerToken = ((await answer.json()) as { access_token: string }).access_token;

    const mrnSystem = `${harness.config.publicUrl}/fhir/sid/clients/${client.id}/mrn`;
    const order = {
      resourceType: "ServiceRequest",
      contained: [
        {
          resourceType: "Patient",
          id: "p",
          identifier: [{ system: mrnSystem, value: "K-55120" }],
          name: [{ family: "Lindqvist", given: ["Saga"] }],
          gender: "female",
          birthDate: "1971-09-02",
        },
      ],
      identifier: [{ system: "urn:oid:2.16.840.1.113883.19.5.9", value: "KIT-ORDER-1" }],
      status: "active",
      intent: "order",
      priority: "routine",
      code: { text: "Continuous EEG monitoring, ICU" },
      subject: { reference: "#p" },
      encounter: { identifier: { value: "KV-77" } },
      requester: { display: "Dr. Tomas Berg" },
      reasonCode: [{ text: "Subclinical seizures suspected" }],
    };
    expect(fhirValidationErrors(order)).toEqual(noFhirErrors);
    const retry = { headers: { "If-None-Exist": "identifier=KIT-ORDER-1" } };
    const serviceRequest = await fhir.create({ resourceType: "ServiceRequest", body: order, options: retry });
    expect(fhirValidationErrors(serviceRequest)).toEqual(noFhirErrors);
    const again = await fhir.create({ resourceType: "ServiceRequest", body: order, options: retry });
    expect(again.id).toBe(serviceRequest.id);
    const caseId = serviceRequest.id as string;

    const task = {
      resourceType: "Task",
      status: "requested",
      intent: "order",
      focus: { reference: `ServiceRequest/${caseId}` },
      owner: { display: "Northwind Neurodiagnostics" },
    };
    expect(fhirValidationErrors(task)).toEqual(noFhirErrors);
    const created = await fhir.create({ resourceType: "Task", body: task });
    expect(fhirValidationErrors(created)).toEqual(noFhirErrors);
    expect(created).toMatchObject({ id: caseId, status: "requested" });
    const taskStatus = async () => {
      const read = await fhir.read({ resourceType: "Task", id: caseId });
      expect(fhirValidationErrors(read)).toEqual(noFhirErrors);
      return read as unknown as { status: string; output?: { valueReference: { reference: string } }[] };
    };

    // Vigil's staff take the case through the routes their screens call.
    const intake = await ok<Case>(team.coordinator("GET", `/cases/${caseId}`));
    expect(intake).toMatchObject({ stage: "intake", patient: { mrn: "K-55120", lastName: "Lindqvist" } });
    await ok(
      team.coordinator("POST", `/cases/${caseId}/actions`, {
        body: { action: "assign-technologist", technologistId: team.technologist.sub },
      }),
    );
    expect((await taskStatus()).status).toBe("accepted");
    const monitoring = await ok<{ case: Case }>(
      team.technologist("POST", `/cases/${caseId}/transitions`, { body: { to: "monitoring" } }),
      201,
    );
    expect((await taskStatus()).status).toBe("in-progress");
    const ended = await ok<Case>(
      team.technologist("PATCH", `/cases/${caseId}`, {
        body: { recordingEndedAt: new Date().toISOString() },
        ifMatch: monitoring.case.version,
      }),
    );
    await ok(team.technologist("POST", `/cases/${caseId}/transitions`, { body: { to: "preview" } }), 201);
    const draft = await ok<InterpretationItem>(
      team.reviewer("POST", collectionOf("interpretation", caseId), {
        body: sampleInterpretation({
          reportType: "summary",
          periodFrom: monitoring.case.recordingStartedAt as string,
          periodTo: ended.recordingEndedAt as string,
        }),
      }),
      201,
    );
    await ok(
      team.reviewer("POST", itemPath("interpretation", caseId, draft.id), {
        body: { change: "sign", baseRevision: draft.revision },
      }),
      201,
    );

    const completed = await taskStatus();
    expect(completed.status).toBe("completed");
    const reportReference = completed.output?.[0]?.valueReference.reference as string;
    expect(reportReference).toMatch(/^DiagnosticReport\//);
    const report = (await fhir.read({
      resourceType: "DiagnosticReport",
      id: reportReference.split("/")[1] as string,
    })) as unknown as {
      basedOn: { reference: string }[];
      presentedForm: { url: string }[];
    };
    expect(fhirValidationErrors(report)).toEqual(noFhirErrors);
    expect(report.basedOn[0]?.reference).toBe(`ServiceRequest/${caseId}`);
    const binaryId = report.presentedForm[0]?.url.split("/").pop() as string;
    const binary = (await fhir.read({ resourceType: "Binary", id: binaryId })) as unknown as { data: string };
    expect(fhirValidationErrors(binary)).toEqual(noFhirErrors);
    const [stored] = await harness.database.db
      .select({ pdf: reportVersions.pdf })
      .from(reportVersions)
      .where(eq(reportVersions.id, binaryId));
    expect(Buffer.from(binary.data, "base64").equals(stored?.pdf as Buffer)).toBe(true);
  });
});
