import type { Client, Hl7MessageDetail } from "@vigil/contract";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, caseOrders, cases, hl7Messages } from "../../db/schema.js";
import { createClient, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import {
  addInterfaceProfile,
  fixtureMessage,
  inboundRow,
  nextControlId,
  readAckText,
} from "../../testing/kits/inbound-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { receiveHl7Message } from "./inbound-service.js";

let harness: TestApp;
let team: Team;
let client: Client;
const peer = { address: "10.20.30.40" };
const messages = "/api/interfaces/hl7/messages";

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "replay");
  client = await createClient(team.admin);
  await addInterfaceProfile(harness.database.db, client.id, { sendingApplication: "EPIC", sendingFacility: "REPLAY" });
});
afterAll(() => harness?.close());

const send = (text: string) => receiveHl7Message(harness.database.db, text, peer);

async function replay(id: string): Promise<Hl7MessageDetail> {
  const response = await team.admin("POST", `${messages}/${id}/replay`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

async function casesOfClient(): Promise<number> {
  return (await harness.database.db.select().from(cases).where(eq(cases.clientId, client.id))).length;
}

describe("replaying an inbound message", () => {
  it("processes it again as a new row naming the original, and a new order already made into a case makes no second case", async () => {
    const control = nextControlId("RP");
    const text = fixtureMessage("epic-orm-o01", {
      FACILITY: "REPLAY",
      AUTHORITY: "REPLAY",
      CONTROL: control,
      PLACER: "ORD-RP-1",
    });
    expect(readAckText(await send(text)).code).toBe("AA");
    const [original] = await inboundRow(harness.database.db, control);
    const before = await casesOfClient();

    const first = await replay(original?.id as string);
    const second = await replay(original?.id as string);

    for (const row of [first, second]) {
      expect(row).toMatchObject({
        direction: "inbound",
        replayOf: original?.id,
        controlId: control,
        status: "processed",
        ackCode: "AA",
        caseId: original?.caseId,
        orderNumber: "ORD-RP-1",
      });
      expect(row.id).not.toBe(original?.id);
    }
    expect(await casesOfClient()).toBe(before);
    const orders = await harness.database.db
      .select()
      .from(caseOrders)
      .where(and(eq(caseOrders.clientId, client.id), eq(caseOrders.placerOrderNumber, "ORD-RP-1")));
    expect(orders).toHaveLength(1);
    expect(await inboundRow(harness.database.db, control)).toHaveLength(3);
  });

  it("leaves the original answering the sender's own retry: the stored ACK again, no new row", async () => {
    const control = nextControlId("RT");
    const text = fixtureMessage("epic-orm-o01", {
      FACILITY: "REPLAY",
      AUTHORITY: "REPLAY",
      CONTROL: control,
      PLACER: "ORD-RT-1",
    });
    const ack = await send(text);
    const [original] = await inboundRow(harness.database.db, control);
    await replay(original?.id as string);

    expect(await send(text)).toBe(ack);
    const rows = await inboundRow(harness.database.db, control);
    expect(rows).toHaveLength(2);
    expect(rows.find((row) => row.replayOf === null)?.id).toBe(original?.id);
  });

  it("takes a message refused before its sender had a profile once the profile exists", async () => {
    const control = nextControlId("NP");
    const text = fixtureMessage("epic-orm-o01", {
      FACILITY: "LATECOMER",
      AUTHORITY: "LATECOMER",
      CONTROL: control,
      PLACER: "ORD-NP-1",
    });
    expect(readAckText(await send(text)).code).toBe("AR");
    const [refused] = await inboundRow(harness.database.db, control);
    expect(refused).toMatchObject({ status: "rejected", clientId: null, caseId: null });

    const later = await createClient(team.admin);
    await addInterfaceProfile(harness.database.db, later.id, {
      sendingApplication: "EPIC",
      sendingFacility: "LATECOMER",
    });
    const row = await replay(refused?.id as string);
    expect(row).toMatchObject({ status: "processed", ackCode: "AA", clientId: later.id, replayOf: refused?.id });
    expect(row.caseId).toEqual(expect.any(String));
    expect(row.caseNumber).toEqual(expect.any(String));
  });

  it("is audited with who replayed it, the original and the replay", async () => {
    const control = nextControlId("AU");
    await send(
      fixtureMessage("epic-orm-o01", { FACILITY: "REPLAY", AUTHORITY: "REPLAY", CONTROL: control, PLACER: "ORD-AU-1" }),
    );
    const [original] = await inboundRow(harness.database.db, control);
    const row = await replay(original?.id as string);
    const [audit] = await harness.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "hl7-message.replay"), eq(auditEvents.targetId, original?.id as string)));
    expect(audit).toMatchObject({ actorUsername: team.admin.username, outcome: "success", targetType: "hl7-message" });
    expect(audit?.details).toMatchObject({
      replayId: row.id,
      ackCode: "AA",
      caseId: original?.caseId,
      clientId: client.id,
      patientMrn: original?.patientMrn,
    });
    const [write] = await harness.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "patient-data.write"), eq(auditEvents.targetId, original?.id as string)));
    expect(write).toMatchObject({ targetType: "hl7-message", outcome: "success" });
    // The inbound service's own record of the processing says it was a replay, and of which message.
    const [processed] = await harness.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "hl7.inbound"), eq(auditEvents.targetId, row.id)));
    expect(processed?.details).toMatchObject({ replayOf: original?.id, ackCode: "AA" });
  });

  it("runs two replays of one message one after the other: one case, two replay rows", async () => {
    const control = nextControlId("CC");
    const text = fixtureMessage("epic-orm-o01", {
      FACILITY: "LATE2",
      AUTHORITY: "LATE2",
      CONTROL: control,
      PLACER: "ORD-CC-1",
    });
    expect(readAckText(await send(text)).code).toBe("AR");
    const [refused] = await inboundRow(harness.database.db, control);
    const later = await createClient(team.admin);
    await addInterfaceProfile(harness.database.db, later.id, { sendingApplication: "EPIC", sendingFacility: "LATE2" });
    const [first, second] = await Promise.all([replay(refused?.id as string), replay(refused?.id as string)]);
    expect([first.ackCode, second.ackCode]).toEqual(["AA", "AA"]);
    expect(first.caseId).toBe(second.caseId);
    expect(await harness.database.db.select().from(cases).where(eq(cases.clientId, later.id))).toHaveLength(1);
  });

  it("is the administrators': coordinators read the log but get 403, as do technologists, reviewers and billing", async () => {
    const control = nextControlId("PM");
    await send(
      fixtureMessage("epic-orm-o01", { FACILITY: "REPLAY", AUTHORITY: "REPLAY", CONTROL: control, PLACER: "ORD-PM-1" }),
    );
    const [original] = await inboundRow(harness.database.db, control);
    for (const caller of [team.coordinator, team.technologist, team.reviewer, team.billing, team.developer]) {
      const response = await caller("POST", `${messages}/${original?.id}/replay`);
      expect(response.statusCode, caller.username).toBe(403);
    }
    expect(await inboundRow(harness.database.db, control)).toHaveLength(1);
    const denied = await harness.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.outcome, "denied"), eq(auditEvents.targetId, original?.id as string)));
    expect(denied).toHaveLength(5);
  });
});

describe("replaying an outbound message that is not a report's result", () => {
  it("is refused with 409 saying a test message is sent anew from the Interfaces tab", async () => {
    const [row] = await harness.database.db
      .insert(hl7Messages)
      .values({
        direction: "outbound",
        clientId: client.id,
        messageType: "ORU^R01",
        controlId: nextControlId("OUT"),
        sendingApplication: "VIGIL",
        sendingFacility: "VIGIL",
        text: "MSH|^~\\&|VIGIL|VIGIL|EPIC|REPLAY|20261129051500||ORU^R01|OUT1|P|2.5.1",
        status: "failed",
      })
      .returning();
    const response = await team.admin("POST", `${messages}/${row?.id}/replay`);
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toMatch(/Interfaces tab/);
  });

  it("answers 404 for a message not in the log", async () => {
    const response = await team.admin("POST", `${messages}/00000000-0000-4000-8000-000000000000/replay`);
    expect(response.statusCode).toBe(404);
  });
});
