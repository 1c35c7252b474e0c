import type { Client } from "@vigil/contract";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caseOrders, cases, hl7Messages } from "../../db/schema.js";
import { auditRows, createClient, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { fhirValidationErrors, noFhirErrors } from "../../testing/kits/fhir-validators-kit.js";
import { hospitalKey, registerHospitalSystem, systemToken } from "../../testing/kits/smart-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

/**
 * Orders in through the FHIR endpoint, with real SMART tokens of two hospitals: a ServiceRequest opens the case in
 * intake by the v2 interface's rules, a Task asks for fulfilment, a retry with If-None-Exist finds the order again,
 * and every bad input is an OperationOutcome naming its element with nothing written.
 */

const scopes = ["system/ServiceRequest.crs", "system/Task.crus", "system/Patient.rs"];
let harness: TestApp;
let team: Team;
let clientA: Client;
let clientB: Client;
let tokenA: string;
let tokenB: string;
let mrnSystemA: string;

beforeAll(async () => {
  harness = await createTestApp({ REPORT_COMPANY_NAME: "Northwind Neurodiagnostics" });
  team = await teamFor(harness, "fhir-orders");
  [clientA, clientB] = [await createClient(team.admin), await createClient(team.admin)];
  const key = await hospitalKey();
  const tokens: string[] = [];
  for (const client of [clientA, clientB]) {
    const system = await registerHospitalSystem(team.admin, client.id, { keys: [key], scopes });
    tokens.push(await systemToken(harness.app, harness.config.publicUrl, key, system.systemClientId, scopes.join(" ")));
  }
  [tokenA, tokenB] = tokens as [string, string];
  // No interface profile: the MRN system is Vigil's URL for the client's MRNs (FHIR.md, "Identifiers").
  mrnSystemA = `${harness.config.publicUrl}/fhir/sid/clients/${clientA.id}/mrn`;
}, 180_000);
afterAll(() => harness.close());

function post(token: string, type: string, body: unknown, headers: Record<string, string> = {}) {
  return harness.app.inject({
    method: "POST",
    url: `/fhir/R4/${type}`,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/fhir+json", ...headers },
    payload: typeof body === "string" ? body : JSON.stringify(body),
  });
}

function put(token: string, url: string, body: unknown) {
  return harness.app.inject({
    method: "PUT",
    url,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/fhir+json" },
    payload: JSON.stringify(body),
  });
}

function get(token: string, url: string) {
  return harness.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${token}` } });
}

function serviceRequest(placer: string, mrn: string, system: string, extra: Record<string, unknown> = {}) {
  return {
    resourceType: "ServiceRequest",
    contained: [
      {
        resourceType: "Patient",
        id: "pat",
        identifier: [{ system, value: mrn }],
        name: [{ family: "Okafor", given: ["Ada"] }],
        gender: "female",
        birthDate: "1958-03-14",
      },
    ],
    identifier: [
      {
        type: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/v2-0203", code: "PLAC" }] },
        system: "urn:oid:2.16.840.1.113883.19.5.1",
        value: placer,
      },
    ],
    status: "active",
    intent: "order",
    priority: "stat",
    code: { coding: [{ system: "http://www.ama-assn.org/go/cpt", code: "95716" }], text: "Long-term video EEG" },
    subject: { reference: "#pat", identifier: { system, value: mrn } },
    encounter: { identifier: { value: "V-2231" } },
    requester: { display: "Dr. Priya Raman" },
    reasonCode: [{ text: "Altered mental status after cardiac arrest" }],
    ...extra,
  };
}

const taskFor = (serviceRequestId: string) => ({
  resourceType: "Task",
  status: "requested",
  intent: "order",
  code: { coding: [{ system: "http://hl7.org/fhir/CodeSystem/task-code", code: "fulfill" }] },
  focus: { reference: `ServiceRequest/${serviceRequestId}` },
  owner: { display: "Northwind Neurodiagnostics" },
});

async function casesOf(clientId: string) {
  return harness.database.db.select({ id: cases.id }).from(cases).where(eq(cases.clientId, clientId));
}

describe("a hospital's order by FHIR", () => {
  it("opens a STAT case in intake, answers 201 with Location and the ServiceRequest reads serve, valid R4", async () => {
    const sent = serviceRequest("ORD-F-1", "M100001", mrnSystemA);
    expect(fhirValidationErrors(sent)).toEqual(noFhirErrors);
    const created = await post(tokenA, "ServiceRequest", sent);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.headers["cache-control"]).toBe("no-store");
    const resource = created.json();
    expect(created.headers.location).toBe(`http://vigil.test/fhir/R4/ServiceRequest/${resource.id}`);
    expect(fhirValidationErrors(resource)).toEqual(noFhirErrors);
    expect(resource).toMatchObject({
      status: "active",
      intent: "order",
      priority: "stat",
      subject: { identifier: { system: mrnSystemA, value: "M100001" } },
      requester: { display: "Dr. Priya Raman" },
      reasonCode: [{ text: "Altered mental status after cardiac arrest" }],
      encounter: { identifier: { value: "V-2231" } },
    });
    const read = await get(tokenA, `/fhir/R4/ServiceRequest/${resource.id}`);
    expect(read.json()).toEqual(resource);

    const staff = (await team.coordinator("GET", `/cases/${resource.id}`)).json().data;
    expect(staff).toMatchObject({
      stage: "intake",
      priority: "stat",
      studyType: "icu-ceeg",
      hasVideo: true,
      patient: { mrn: "M100001", lastName: "Okafor", firstName: "Ada" },
      order: { placerOrderNumber: "ORD-F-1", fillerOrderNumber: staff.caseNumber },
    });
    const [order] = await harness.database.db.select().from(caseOrders).where(eq(caseOrders.caseId, resource.id));
    expect(order?.source).toBe("fhir");

    // Patient data received: audited as an HL7 order is, and the create is a row of the client's message log.
    const writes = await auditRows(harness, "patient-data.write", resource.id);
    expect(writes.map((row) => (row.details as { channel?: string }).channel)).toEqual(["fhir"]);
    expect((await auditRows(harness, "fhir.create", resource.id)).length).toBe(1);
    const [logged] = await harness.database.db
      .select()
      .from(hl7Messages)
      .where(and(eq(hl7Messages.caseId, resource.id), eq(hl7Messages.messageType, "FHIR ServiceRequest")));
    expect(logged).toMatchObject({ clientId: clientA.id, status: "processed", ackCode: "201", orderNumber: "ORD-F-1" });
    expect(JSON.parse(logged?.text ?? "{}").identifier[0].value).toBe("ORD-F-1");
  });

  it("takes the Task for the order: 201 the first time, 200 after, and the Task reads requested, valid R4", async () => {
    const order = (await post(tokenA, "ServiceRequest", serviceRequest("ORD-F-2", "M100002", mrnSystemA))).json();
    const task = taskFor(order.id);
    expect(fhirValidationErrors(task)).toEqual(noFhirErrors);
    const first = await post(tokenA, "Task", task);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers.location).toBe(`http://vigil.test/fhir/R4/Task/${order.id}`);
    expect(fhirValidationErrors(first.json())).toEqual(noFhirErrors);
    expect(first.json()).toMatchObject({
      id: order.id,
      status: "requested",
      intent: "order",
      focus: { reference: `ServiceRequest/${order.id}` },
    });
    const again = await post(tokenA, "Task", task);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().id).toBe(order.id);
    const read = await get(tokenA, `/fhir/R4/Task/${order.id}`);
    expect(read.json()).toMatchObject({ id: order.id, status: "requested" });
  });

  it("answers a retried POST with If-None-Exist 200 with the same order, and without it 409: one case", async () => {
    const body = serviceRequest("ORD-F-3", "M100003", mrnSystemA);
    const condition = { "if-none-exist": "identifier=urn:oid:2.16.840.1.113883.19.5.1|ORD-F-3" };
    const before = (await casesOf(clientA.id)).length;
    const first = await post(tokenA, "ServiceRequest", body, condition);
    expect(first.statusCode, first.body).toBe(201);
    const retry = await post(tokenA, "ServiceRequest", body, condition);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json()).toEqual(first.json());
    // Vigil's own system for the placer number (what reads answer with) finds it too.
    const bySystem = await post(tokenA, "ServiceRequest", body, {
      "if-none-exist": `identifier=${encodeURIComponent(first.json().identifier[0].system)}|ORD-F-3`,
    });
    expect(bySystem.statusCode, bySystem.body).toBe(200);
    const plain = await post(tokenA, "ServiceRequest", body);
    expect(plain.statusCode).toBe(409);
    expect(plain.json().issue[0]).toMatchObject({ code: "duplicate", expression: ["ServiceRequest.identifier"] });
    expect(plain.json().issue[0].diagnostics).toContain(`ServiceRequest/${first.json().id}`);
    expect((await casesOf(clientA.id)).length).toBe(before + 1);
  });

  it("makes one case of the same POST sent five times at once", async () => {
    const body = serviceRequest("ORD-F-RACE", "M100004", mrnSystemA);
    const condition = { "if-none-exist": "identifier=ORD-F-RACE" };
    const answers = await Promise.all(Array.from({ length: 5 }, () => post(tokenA, "ServiceRequest", body, condition)));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses, answers.map((answer) => answer.body).join("\n")).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(answers.map((answer) => answer.json().id)).size).toBe(1);
    const orders = await harness.database.db
      .select()
      .from(caseOrders)
      .where(and(eq(caseOrders.clientId, clientA.id), eq(caseOrders.placerOrderNumber, "ORD-F-RACE")));
    expect(orders).toHaveLength(1);
  });

  it("takes an order naming only the MRN of a patient Vigil holds an open case of", async () => {
    const { contained: _contained, ...bare } = serviceRequest("ORD-F-5", "M100001", mrnSystemA);
    const created = await post(tokenA, "ServiceRequest", {
      ...bare,
      subject: { identifier: { system: mrnSystemA, value: "M100001" } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const staff = (await team.coordinator("GET", `/cases/${created.json().id}`)).json().data;
    expect(staff.patient).toMatchObject({ mrn: "M100001", lastName: "Okafor", firstName: "Ada" });
    const unknown = await post(tokenA, "ServiceRequest", {
      ...bare,
      identifier: [{ value: "ORD-F-6" }],
      subject: { identifier: { system: mrnSystemA, value: "M-NEVER-SEEN" } },
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().issue[0].expression).toEqual(["ServiceRequest.subject"]);
  });
});

describe("the hospital cancels", () => {
  it("cancels an order in intake by sending its Task back cancelled: archived, the Task cancelled with the reason", async () => {
    const order = (await post(tokenA, "ServiceRequest", serviceRequest("ORD-C-1", "M400001", mrnSystemA))).json();
    const task = (await post(tokenA, "Task", taskFor(order.id))).json();
    const cancel = { ...task, status: "cancelled", statusReason: { text: "Patient transferred to another hospital" } };
    const cancelled = await put(tokenA, `/fhir/R4/Task/${order.id}`, cancel);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(fhirValidationErrors(cancelled.json())).toEqual(noFhirErrors);
    expect(cancelled.json()).toMatchObject({
      status: "cancelled",
      statusReason: { text: "Patient transferred to another hospital" },
    });
    expect((await get(tokenA, `/fhir/R4/ServiceRequest/${order.id}`)).json().status).toBe("revoked");
    expect((await team.coordinator("GET", `/cases/${order.id}`)).json().data.archivedAt).not.toBeNull();
    const again = await put(tokenA, `/fhir/R4/Task/${order.id}`, cancel);
    expect(again.statusCode, again.body).toBe(200);
    expect((await auditRows(harness, "fhir.update", order.id)).length).toBe(2);
    // Another hospital's token finds no such Task.
    expect((await put(tokenB, `/fhir/R4/Task/${order.id}`, cancel)).statusCode).toBe(404);
  });

  it("refuses to cancel an order past intake (409), and any other change of status (400)", async () => {
    const order = (await post(tokenA, "ServiceRequest", serviceRequest("ORD-C-2", "M400002", mrnSystemA))).json();
    const task = (await post(tokenA, "Task", taskFor(order.id))).json();
    const other = await put(tokenA, `/fhir/R4/Task/${order.id}`, { ...task, status: "completed" });
    expect(other.statusCode).toBe(400);
    expect(other.json().issue[0].expression).toEqual(["Task.status"]);
    await team.coordinator("POST", `/cases/${order.id}/actions`, {
      body: { action: "assign-technologist", technologistId: team.technologist.sub },
    });
    const started = await team.technologist("POST", `/cases/${order.id}/transitions`, { body: { to: "monitoring" } });
    expect(started.statusCode, started.body).toBe(201);
    const late = await put(tokenA, `/fhir/R4/Task/${order.id}`, { ...task, status: "cancelled" });
    expect(late.statusCode).toBe(409);
    expect(late.json().issue[0].diagnostics).toContain("monitoring");
    expect((await get(tokenA, `/fhir/R4/Task/${order.id}`)).json().status).toBe("in-progress");
  });
});

describe("bad input", () => {
  const good = () => serviceRequest("ORD-BAD", "M200001", mrnSystemA);
  // Bodies are built when each test runs: the MRN system is known once the hospitals are registered.
  const refusals: [string, () => unknown, number, string, string][] = [
    [
      "the wrong resourceType",
      () => ({ ...good(), resourceType: "Patient" }),
      400,
      "invalid",
      "ServiceRequest.resourceType",
    ],
    ["an unknown priority", () => ({ ...good(), priority: "whenever" }), 400, "invalid", "ServiceRequest.priority"],
    ["no placer identifier", () => ({ ...good(), identifier: [] }), 400, "invalid", "ServiceRequest.identifier"],
    ["a draft", () => ({ ...good(), status: "draft" }), 400, "invalid", "ServiceRequest.status"],
    [
      "no subject identifier",
      () => ({ ...good(), contained: undefined, subject: { display: "Ada Okafor" } }),
      422,
      "processing",
      "ServiceRequest.subject.identifier",
    ],
    [
      "an MRN under another system",
      () => serviceRequest("ORD-BAD", "M200001", "urn:oid:1.2.3"),
      422,
      "processing",
      "ServiceRequest.subject.identifier.system",
    ],
    [
      "a contained patient without a name",
      () => ({
        ...good(),
        contained: [{ resourceType: "Patient", id: "pat", identifier: [{ system: mrnSystemA, value: "M200001" }] }],
      }),
      422,
      "processing",
      "ServiceRequest.contained.name",
    ],
    [
      "an encounter without its visit number",
      () => ({ ...good(), encounter: { reference: "Encounter/123" } }),
      422,
      "processing",
      "ServiceRequest.encounter.identifier",
    ],
  ];
  for (const [what, body, status, code, expression] of refusals) {
    it(`refuses ${what} with ${status} naming ${expression}, writing no case`, async () => {
      const before = (await casesOf(clientA.id)).length;
      const response = await post(tokenA, "ServiceRequest", body());
      expect(response.statusCode, response.body).toBe(status);
      expect(response.headers["content-type"]).toBe("application/fhir+json; charset=utf-8");
      expect(response.json().issue[0]).toMatchObject({ code, expression: [expression] });
      expect((await casesOf(clientA.id)).length).toBe(before);
    });
  }

  it("refuses a body that is not JSON (400) and one over a megabyte (413), as OperationOutcomes", async () => {
    const broken = await post(tokenA, "ServiceRequest", '{"resourceType": "ServiceRequest",');
    expect(broken.statusCode).toBe(400);
    expect(broken.json().issue[0]).toMatchObject({ code: "structure" });
    const huge = await post(tokenA, "ServiceRequest", { ...good(), note: [{ text: "x".repeat(1_100_000) }] });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ resourceType: "OperationOutcome", issue: [{ code: "too-costly" }] });
  });

  it("refuses an If-None-Exist other than the placer identifier, and a Task whose focus is no order", async () => {
    const condition = await post(tokenA, "ServiceRequest", good(), { "if-none-exist": "patient=Patient/1" });
    expect(condition.statusCode).toBe(400);
    expect(condition.json().issue[0].expression).toEqual(["If-None-Exist"]);
    const task = await post(tokenA, "Task", { ...taskFor("x"), focus: { reference: "Patient/123" } });
    expect(task.statusCode).toBe(422);
    expect(task.json().issue[0].expression).toEqual(["Task.focus.reference"]);
    const refused = await auditRows(harness, "fhir.create");
    expect(refused.some((row) => row.outcome === "failure")).toBe(true);
  });
});

describe("two hospitals", () => {
  it("keeps each hospital's orders its own: another's ServiceRequest is no focus, and placer numbers are per hospital", async () => {
    const orderA = (await post(tokenA, "ServiceRequest", serviceRequest("ORD-SHARED", "M300001", mrnSystemA))).json();
    const taskB = await post(tokenB, "Task", taskFor(orderA.id));
    expect(taskB.statusCode).toBe(422);
    expect(taskB.json().issue[0].diagnostics).toContain("not an order of this hospital");
    expect((await get(tokenB, `/fhir/R4/ServiceRequest/${orderA.id}`)).statusCode).toBe(404);
    const mrnSystemB = `${harness.config.publicUrl}/fhir/sid/clients/${clientB.id}/mrn`;
    const orderB = await post(tokenB, "ServiceRequest", serviceRequest("ORD-SHARED", "M300001", mrnSystemB), {
      "if-none-exist": "identifier=ORD-SHARED",
    });
    expect(orderB.statusCode, orderB.body).toBe(201);
    expect(orderB.json().id).not.toBe(orderA.id);
    // A's MRN system is not B's: B cannot file an order under A's namespace.
    const crossed = await post(tokenB, "ServiceRequest", serviceRequest("ORD-X", "M300001", mrnSystemA));
    expect(crossed.statusCode).toBe(422);
  });
});
