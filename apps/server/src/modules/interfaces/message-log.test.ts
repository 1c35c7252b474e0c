import type { Client, Hl7MessageDetail, Hl7MessageSummary } from "@vigil/contract";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, hl7Messages } from "../../db/schema.js";
import { createClient, openCase, type Team, teamFor, unknownId } from "../../testing/kits/cases-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

let harness: TestApp;
let team: Team;
let north: Client;
let south: Client;
const messages = "/api/interfaces/hl7/messages";
const minute = 60_000;
const start = Date.parse("2026-03-02T08:00:00Z");

type Row = typeof hl7Messages.$inferInsert;
let counter = 0;

function orm(controlId: string, mrn: string, order: string, obx = ""): string {
  return [
    `MSH|^~\\&|EPIC|NORTH|VIGIL|VIGIL|20260302080000||${obx ? "ORU^R01" : "ORM^O01"}|${controlId}|P|2.5.1`,
    `PID|1||${mrn}^^^NORTH^MR||Doe^Jane||19700501|F`,
    `ORC|NW|${order}`,
    `OBR|1|${order}||95720^EEG continuous^CPT`,
    ...(obx ? [obx] : []),
  ].join("\r");
}

/** A logged message as the inbound and outbound services write them; `minutes` after `start`. */
async function logged({ minutes, ...values }: Partial<Row> & { minutes: number }): Promise<string> {
  counter += 1;
  const controlId = values.controlId ?? `CTRL-${counter}`;
  const mrn = values.patientMrn ?? `MRN-${counter}`;
  const order = values.orderNumber ?? `ORD-${counter}`;
  const [row] = await harness.database.db
    .insert(hl7Messages)
    .values({
      direction: "inbound",
      messageType: "ORM^O01",
      sendingApplication: "EPIC",
      sendingFacility: "NORTH",
      status: "processed",
      ackCode: "AA",
      text: orm(controlId, mrn, order),
      ...values,
      controlId,
      patientMrn: mrn,
      orderNumber: order,
      createdAt: new Date(start + minutes * minute),
    })
    .returning({ id: hl7Messages.id });
  return row?.id ?? "";
}

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "log");
  north = await createClient(team.admin);
  south = await createClient(team.admin);
});
afterAll(async () => harness?.close());

async function list(query: string): Promise<{ items: Hl7MessageSummary[]; total: number }> {
  const response = await team.coordinator("GET", `${messages}?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

describe("the HL7 message log", () => {
  let orderMessage: string;
  let outboundResult: string;
  let rejected: string;
  let caseNumber: string;

  beforeAll(async () => {
    const kase = await openCase(team.coordinator, north.id);
    caseNumber = kase.caseNumber;
    orderMessage = await logged({
      minutes: 1,
      clientId: north.id,
      caseId: kase.id,
      controlId: "EPIC-0001",
      patientMrn: "MRN-777",
      orderNumber: "PLACER-42",
      processedAt: new Date(start + minute),
    });
    await logged({ minutes: 2, clientId: north.id, messageType: "ADT^A08" });
    await logged({ minutes: 3, clientId: south.id, messageType: "OML^O21", sendingApplication: "CERNER" });
    rejected = await logged({
      minutes: 4,
      status: "rejected",
      ackCode: "AR",
      error: "No interface profile owns EPIC/UNKNOWN.",
      sendingFacility: "UNKNOWN",
    });
    const pdf = Buffer.alloc(90_000, 7).toString("base64");
    outboundResult = await logged({
      minutes: 5,
      direction: "outbound",
      clientId: north.id,
      caseId: kase.id,
      messageType: "ORU^R01",
      status: "failed",
      ackCode: "AE",
      attempts: 3,
      sendingApplication: "VIGIL",
      sendingFacility: "VIGIL",
      patientMrn: "MRN-777",
      orderNumber: "PLACER-42",
      text: orm("VIGIL-9", "MRN-777", "PLACER-42", `OBX|1|ED|PDF^Report||^AP^PDF^Base64^${pdf}||||||F`),
      ack: "MSH|^~\\&|EPIC|NORTH|VIGIL|VIGIL|20260302080500||ACK^R01|A1|P|2.5.1\rMSA|AE|VIGIL-9",
    });
  });

  it("lists every message newest first, with its client's name and its case's number", async () => {
    const page = await list("limit=10");
    expect(page.total).toBe(5);
    expect(page.items.map((item) => item.id)[0]).toBe(outboundResult);
    expect(page.items.at(-1)?.id).toBe(orderMessage);
    const order = page.items.find((item) => item.id === orderMessage);
    expect(order).toMatchObject({ clientName: north.name, caseNumber, controlId: "EPIC-0001", status: "processed" });
    expect(page.items.find((item) => item.id === rejected)).toMatchObject({ clientName: null, caseNumber: null });
  });

  it("pages on the server: limit and offset cut the same newest-first order, total counts them all", async () => {
    const first = await list("limit=2&offset=0");
    const second = await list("limit=2&offset=2");
    const third = await list("limit=2&offset=4");
    expect([first.total, second.total, third.total]).toEqual([5, 5, 5]);
    const ids = [...first.items, ...second.items, ...third.items].map((item) => item.id);
    expect(new Set(ids).size).toBe(5);
    expect(third.items).toHaveLength(1);
  });

  it("filters by direction, status, client, message type (whole or code alone) and dates", async () => {
    expect((await list("direction=outbound")).items.map((item) => item.id)).toEqual([outboundResult]);
    expect((await list("status=rejected")).items.map((item) => item.id)).toEqual([rejected]);
    expect((await list(`clientId=${south.id}`)).items.map((item) => item.messageType)).toEqual(["OML^O21"]);
    expect((await list("messageType=ORM^O01")).total).toBe(2);
    expect((await list("messageType=adt")).items.map((item) => item.messageType)).toEqual(["ADT^A08"]);
    expect((await list("messageType=AD")).total).toBe(0);
    const from = new Date(start + 2 * minute).toISOString();
    const to = new Date(start + 4 * minute).toISOString();
    expect((await list(`from=${from}&to=${to}`)).items.map((item) => item.messageType)).toEqual(["OML^O21", "ADT^A08"]);
  });

  it("searches exactly on a control id, an MRN or an order number, never on a part of one", async () => {
    expect((await list("search=EPIC-0001")).items.map((item) => item.id)).toEqual([orderMessage]);
    expect((await list("search=MRN-777")).items.map((item) => item.id)).toEqual([outboundResult, orderMessage]);
    expect((await list("search=PLACER-42")).total).toBe(2);
    expect((await list("search=PLACER")).total).toBe(0);
  });

  it("lays a message out as segments and fields on its own delimiters, an embedded PDF shortened", async () => {
    const response = await team.coordinator("GET", `${messages}/${outboundResult}`);
    expect(response.statusCode, response.body).toBe(200);
    const detail: Hl7MessageDetail = response.json().data;
    expect(detail.segments.map((segment) => segment.name)).toEqual(["MSH", "PID", "ORC", "OBR", "OBX"]);
    const msh = detail.segments[0]?.fields ?? [];
    // MSH-1 is the field separator, MSH-2 the encoding characters, MSH-9 the type, MSH-10 the control id.
    expect([msh[0], msh[1], msh[8], msh[9]]).toEqual(["|", "^~\\&", "ORU^R01", "VIGIL-9"]);
    expect(detail.segments[1]?.fields[2]).toBe("MRN-777^^^NORTH^MR");
    expect(detail.segments[4]?.fields[4]).toBe("^AP^PDF^Base64^[PDF, 120,000 bytes base64]");
    expect(detail.text.split("\n")).toHaveLength(5);
    expect(detail.text).toContain("[PDF, 120,000 bytes base64]");
    expect(response.body.length).toBeLessThan(5_000);
    expect(detail.ack).toBe("MSH|^~\\&|EPIC|NORTH|VIGIL|VIGIL|20260302080500||ACK^R01|A1|P|2.5.1\nMSA|AE|VIGIL-9");
    expect(detail).toMatchObject({ direction: "outbound", attempts: 3, caseNumber, replayOf: null });
  });

  it("reads a message sent with other delimiters on those delimiters", async () => {
    const id = await logged({
      minutes: -10,
      controlId: "ALT-1",
      text: "MSH#*~\\&#EPIC#NORTH#VIGIL#VIGIL#20260302075000##ADT*A08#ALT-1#P#2.5.1\rPID#1##M-9*a*b",
    });
    const detail: Hl7MessageDetail = (await team.admin("GET", `${messages}/${id}`)).json().data;
    expect(detail.segments[0]?.fields.slice(0, 3)).toEqual(["#", "*~\\&", "EPIC"]);
    expect(detail.segments[1]).toEqual({ name: "PID", fields: ["1", "", "M-9*a*b"] });
    await harness.database.db.delete(hl7Messages).where(eq(hl7Messages.id, id));
  });

  it("answers 404 for a message that is not in the log", async () => {
    expect((await team.admin("GET", `${messages}/${unknownId}`)).statusCode).toBe(404);
  });

  it("audits each read: the list as a patient-data read, a message also with its case, client and MRN", async () => {
    const reader = team.coordinator;
    await reader("GET", `${messages}?search=MRN-777`);
    await reader("GET", `${messages}/${orderMessage}`);
    const rows = await harness.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.actorUsername, reader.username));
    const listRead = rows.find((row) => (row.details as { route?: string } | null)?.route === "listHl7Messages");
    expect(listRead).toMatchObject({ action: "patient-data.read", outcome: "success" });
    const messageRead = rows.find(
      (row) => (row.details as { route?: string } | null)?.route === "getHl7Message" && row.targetId === orderMessage,
    );
    expect(messageRead).toMatchObject({ targetType: "hl7-message", targetId: orderMessage, outcome: "success" });
    const [named] = await harness.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "hl7-message.read"), eq(auditEvents.targetId, orderMessage)));
    expect(named?.details).toMatchObject({ caseId: expect.any(String), clientId: north.id, patientMrn: "MRN-777" });
  });

  it("lets administrators and coordinators read the log; technologists, reviewers, billing and developers get 403", async () => {
    for (const caller of [team.admin, team.coordinator]) {
      expect((await caller("GET", messages)).statusCode).toBe(200);
      expect((await caller("GET", `${messages}/${orderMessage}`)).statusCode).toBe(200);
    }
    for (const caller of [team.technologist, team.reviewer, team.billing, team.developer]) {
      expect((await caller("GET", messages)).statusCode).toBe(403);
      expect((await caller("GET", `${messages}/${orderMessage}`)).statusCode).toBe(403);
    }
    const denied = await harness.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.actorUsername, team.billing.username), eq(auditEvents.outcome, "denied")));
    expect(denied.map((row) => (row.details as { route?: string } | null)?.route).sort()).toEqual([
      "getHl7Message",
      "listHl7Messages",
    ]);
  });
});
