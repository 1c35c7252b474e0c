import type { Case, Client } from "@vigil/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, caseActions, casePatientDetails, cases } from "../../db/schema.js";
import { type Caller, callerFor } from "../../testing/kits/caller-kit.js";
import { createClient } from "../../testing/kits/cases-kit.js";
import {
  addInterfaceProfile,
  fixtureMessage,
  inboundRow,
  nextControlId,
  orderOfPlacer,
  readAckText,
} from "../../testing/kits/inbound-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { receiveHl7Message } from "./inbound-service.js";

let harness: TestApp;
let coordinator: Caller;
let client: Client;
const peer = { address: "10.20.30.40" };

beforeAll(async () => {
  harness = await createTestApp();
  const admin = await callerFor(harness, "inbound-admin", ["admin"]);
  coordinator = await callerFor(harness, "inbound-coordinator", ["coordinator"]);
  client = await createClient(admin);
  await addInterfaceProfile(harness.database.db, client.id, { sendingApplication: "EPIC", sendingFacility: "UCHMC" });
});
afterAll(() => harness.close());

const send = (text: string) => receiveHl7Message(harness.database.db, text, peer);

async function caseOf(caseId: string): Promise<Case> {
  const response = await coordinator("GET", `/cases/${caseId}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

describe("a new order (ORC-1 NW)", () => {
  it("opens a case in intake with the patient, the order number and the visit, and answers AA", async () => {
    const control = nextControlId("EP");
    const ack = await send(fixtureMessage("epic-orm-o01", { CONTROL: control, PLACER: "ORD-NW-1", MRN: "E100001" }));
    const read = readAckText(ack);
    expect(read.code).toBe("AA");
    expect(ack).toContain(`MSA|AA|${control}|`);
    const [row] = await inboundRow(harness.database.db, control);
    expect(row).toMatchObject({
      direction: "inbound",
      clientId: client.id,
      messageType: "ORM^O01",
      status: "processed",
      ackCode: "AA",
      patientMrn: "E100001",
      orderNumber: "ORD-NW-1",
      peer: peer.address,
      ack,
    });
    const detail = await caseOf(row?.caseId as string);
    expect(detail).toMatchObject({
      stage: "intake",
      clientId: client.id,
      studyType: "icu-ceeg",
      hasVideo: true,
      priority: "routine",
      createdBy: { sub: null, username: "hl7-interface" },
      patient: {
        mrn: "E100001",
        firstName: "JANE",
        lastName: "DOE",
        dateOfBirth: "1970-05-01",
        sex: "female",
        location: { unit: "4W", room: "412", bed: "B" },
      },
      order: {
        source: "hl7",
        placerOrderNumber: "ORD-NW-1",
        fillerOrderNumber: detail.caseNumber,
        visitNumber: "V998877",
        orderingProvider: "NED NEURO (1234567)",
        mrnAssigningAuthority: "UCHMC",
        reason: "Unspecified convulsions",
        location: "4W, room 412, bed B",
        dischargedAt: null,
        cancelledAt: null,
      },
    });
    const audits = await harness.database.db.select().from(auditEvents).where(eq(auditEvents.targetId, detail.id));
    expect(audits.map((audit) => audit.action)).toEqual(expect.arrayContaining(["case.create", "patient-data.write"]));
    expect(JSON.stringify(audits)).not.toContain("E100001");
  });

  it("answers a repeated MSH-10 with the same ACK and changes nothing", async () => {
    const control = nextControlId("EP");
    const text = fixtureMessage("epic-orm-o01", { CONTROL: control, PLACER: "ORD-DUP-1", MRN: "E100002" });
    const first = await send(text);
    const again = await send(text);
    expect(again).toBe(first);
    expect(await inboundRow(harness.database.db, control)).toHaveLength(1);
    expect(await orderOfPlacer(harness.database.db, "ORD-DUP-1")).toHaveLength(1);
  });

  it("makes one case when two deliveries of one message race", async () => {
    const control = nextControlId("EP");
    const text = fixtureMessage("epic-orm-o01", { CONTROL: control, PLACER: "ORD-RACE-1", MRN: "E100003" });
    const [one, two] = await Promise.all([send(text), send(text)]);
    expect(one).toBe(two);
    expect(readAckText(one).code).toBe("AA");
    expect(await orderOfPlacer(harness.database.db, "ORD-RACE-1")).toHaveLength(1);
  });

  it("reads STAT priority and the ambulatory study type from the order", async () => {
    const control = nextControlId("EP");
    await send(
      fixtureMessage("epic-orm-o01", {
        CONTROL: control,
        PLACER: "ORD-AMB-1",
        MRN: "E100004",
        PRIORITY: "S",
        SERVICE_CODE: "95708",
        SERVICE_TEXT: "AMBULATORY EEG 12-26H",
      }),
    );
    const [order] = await orderOfPlacer(harness.database.db, "ORD-AMB-1");
    const detail = await caseOf(order?.caseId as string);
    expect(detail).toMatchObject({ studyType: "ambulatory", hasVideo: false, priority: "stat" });
  });

  it("keeps Vigil's demographics for a patient with an open case and puts the difference on the timeline", async () => {
    await send(fixtureMessage("epic-orm-o01", { CONTROL: nextControlId(), PLACER: "ORD-PAT-1", MRN: "E100005" }));
    const control = nextControlId();
    const ack = await send(
      fixtureMessage("epic-orm-o01", { CONTROL: control, PLACER: "ORD-PAT-2", MRN: "E100005", LAST: "SMITH" }),
    );
    expect(readAckText(ack).code).toBe("AA");
    expect(readAckText(ack).text).toContain("patient details differ");
    const [first] = await orderOfPlacer(harness.database.db, "ORD-PAT-1");
    const [second] = await orderOfPlacer(harness.database.db, "ORD-PAT-2");
    const detail = await caseOf(second?.caseId as string);
    expect(detail.patient).toMatchObject({ mrn: "E100005", lastName: "DOE" });
    const actions = await harness.database.db
      .select()
      .from(caseActions)
      .where(eq(caseActions.caseId, second?.caseId as string));
    const conflict = actions.find((action) => action.action === "interface-demographics-conflict");
    expect(conflict?.details).toMatchObject({ fields: ["lastName"], received: { lastName: "SMITH" } });
    expect(conflict?.details.keptFrom).toBe((await caseOf(first?.caseId as string)).caseNumber);
  });

  it("refuses a placer number another patient's order holds with AE 205", async () => {
    await send(fixtureMessage("epic-orm-o01", { CONTROL: nextControlId(), PLACER: "ORD-TAKEN", MRN: "E100006" }));
    const control = nextControlId();
    const ack = await send(fixtureMessage("epic-orm-o01", { CONTROL: control, PLACER: "ORD-TAKEN", MRN: "E999999" }));
    expect(readAckText(ack)).toMatchObject({ code: "AE", error: "205" });
    const [row] = await inboundRow(harness.database.db, control);
    expect(row).toMatchObject({ status: "error", ackCode: "AE", caseId: null });
    expect(await orderOfPlacer(harness.database.db, "ORD-TAKEN")).toHaveLength(1);
  });
});

describe("refusals", () => {
  it("rejects an identity no profile owns with AR 204, stored without a client", async () => {
    const control = nextControlId();
    const ack = await send(fixtureMessage("epic-orm-o01", { CONTROL: control, FACILITY: "NOWHERE" }));
    expect(readAckText(ack)).toMatchObject({ code: "AR", error: "204", location: "MSH^1^3" });
    const [row] = await inboundRow(harness.database.db, control);
    expect(row).toMatchObject({ status: "rejected", clientId: null, ackCode: "AR", sendingFacility: "NOWHERE" });
    expect(row?.error).toContain("No client");
  });

  it("answers AE 204 for an MRN of another assigning authority, and creates nothing", async () => {
    const control = nextControlId();
    const before = await harness.database.db.select({ id: cases.id }).from(cases);
    const ack = await send(
      fixtureMessage("epic-orm-o01", { CONTROL: control, AUTHORITY: "OTHER", PLACER: "ORD-AUTH" }),
    );
    expect(readAckText(ack)).toMatchObject({ code: "AE", error: "204", location: "PID^1^3^1^4" });
    expect(await harness.database.db.select({ id: cases.id }).from(cases)).toHaveLength(before.length);
    expect(await orderOfPlacer(harness.database.db, "ORD-AUTH")).toHaveLength(0);
  });

  it("answers AE 101 naming a missing required field, and AE 102 for a date that is no date", async () => {
    const missing = await send(fixtureMessage("epic-orm-o01", { CONTROL: nextControlId(), FIRST: "" }));
    expect(readAckText(missing)).toMatchObject({ code: "AE", error: "101", location: "PID^1^5^1^2" });
    const badDate = fixtureMessage("epic-orm-o01", { CONTROL: nextControlId(), PLACER: "ORD-DOB" }).replace(
      "|19700501|",
      "|19701345|",
    );
    expect(readAckText(await send(badDate))).toMatchObject({ code: "AE", error: "102", location: "PID^1^7" });
  });

  it("rejects an unsupported message type with AR 200 and an unsupported event with AR 201", async () => {
    const oru = fixtureMessage("epic-orm-o01", { CONTROL: nextControlId() }).replace("ORM^O01^ORM_O01", "ORU^R01");
    expect(readAckText(await send(oru))).toMatchObject({ code: "AR", error: "200" });
    const o02 = fixtureMessage("epic-orm-o01", { CONTROL: nextControlId() }).replace("ORM^O01^ORM_O01", "ORM^O02");
    expect(readAckText(await send(o02))).toMatchObject({ code: "AR", error: "201", location: "MSH^1^9^1^2" });
  });

  it("rejects a version it does not read with AR 203 naming MSH-12, and creates nothing", async () => {
    const control = nextControlId("V");
    const message = fixtureMessage("epic-orm-o01", { CONTROL: control, PLACER: "ORD-V28" }).replace(
      "|P|2.5.1",
      "|P|2.8",
    );
    const read = readAckText(await send(message));
    expect(read).toMatchObject({ code: "AR", error: "203", location: "MSH^1^12" });
    expect(read.text).toContain("HL7 version 2.8 (MSH-12) is not taken here");
    const [row] = await inboundRow(harness.database.db, control);
    expect(row).toMatchObject({ status: "rejected", ackCode: "AR", caseId: null });
    expect(await orderOfPlacer(harness.database.db, "ORD-V28")).toEqual([]);
    const missing = fixtureMessage("epic-orm-o01", { CONTROL: nextControlId("V") }).replace("|P|2.5.1", "|P|");
    expect(readAckText(await send(missing))).toMatchObject({ code: "AR", error: "101", location: "MSH^1^12" });
    // The versions before and after 2.5.1 that the fields read mean the same in are taken.
    const older = fixtureMessage("epic-orm-o01", { CONTROL: nextControlId("V"), PLACER: "ORD-V231" }).replace(
      "|P|2.5.1",
      "|P|2.3.1",
    );
    expect(readAckText(await send(older)).code).toBe("AA");
  });
});

describe("cancel (CA) and change (XO)", () => {
  it("cancels an order still in intake: the case is archived with the reason", async () => {
    await send(fixtureMessage("epic-orm-o01", { CONTROL: nextControlId(), PLACER: "ORD-CA-1", MRN: "E200001" }));
    const ack = await send(
      fixtureMessage("epic-orm-o01", {
        CONTROL: nextControlId(),
        PLACER: "ORD-CA-1",
        MRN: "E200001",
        CONTROL_CODE: "CA",
        CANCEL_REASON: "Ordered in error",
      }),
    );
    expect(readAckText(ack).code).toBe("AA");
    const [order] = await orderOfPlacer(harness.database.db, "ORD-CA-1");
    expect(order?.cancelReason).toBe("Ordered in error");
    expect(order?.cancelledAt).toBeInstanceOf(Date);
    const detail = await caseOf(order?.caseId as string);
    expect(detail.archivedAt).not.toBeNull();
    expect(detail.order?.cancelReason).toBe("Ordered in error");
  });

  it("refuses to cancel an order already in monitoring with AE, leaving the case as it is", async () => {
    await send(fixtureMessage("epic-orm-o01", { CONTROL: nextControlId(), PLACER: "ORD-CA-2", MRN: "E200002" }));
    const [order] = await orderOfPlacer(harness.database.db, "ORD-CA-2");
    // Setup: the workflow's own moves are tested elsewhere; here only the stage matters.
    await harness.database.db
      .update(cases)
      .set({ stage: "monitoring" })
      .where(eq(cases.id, order?.caseId as string));
    const ack = await send(
      fixtureMessage("epic-orm-o01", { CONTROL: nextControlId(), PLACER: "ORD-CA-2", CONTROL_CODE: "CA" }),
    );
    expect(readAckText(ack)).toMatchObject({ code: "AE", error: "207" });
    expect(readAckText(ack).text).toContain("call the monitoring team");
    expect((await caseOf(order?.caseId as string)).archivedAt).toBeNull();
  });

  it("changes the order's fields and appends a patient-details revision by the interface (XO)", async () => {
    await send(fixtureMessage("epic-orm-o01", { CONTROL: nextControlId(), PLACER: "ORD-XO-1", MRN: "E200003" }));
    const ack = await send(
      fixtureMessage("epic-orm-o01", {
        CONTROL: nextControlId(),
        PLACER: "ORD-XO-1",
        MRN: "E200003",
        CONTROL_CODE: "XO",
        VISIT: "V112233",
        LAST: "DOE-RIVERA",
      }),
    );
    expect(readAckText(ack).code).toBe("AA");
    const [order] = await orderOfPlacer(harness.database.db, "ORD-XO-1");
    expect(order?.visitNumber).toBe("V112233");
    const revisions = await harness.database.db
      .select()
      .from(casePatientDetails)
      .where(eq(casePatientDetails.caseId, order?.caseId as string));
    expect(revisions).toHaveLength(2);
    expect(revisions.find((revision) => revision.revision === 2)).toMatchObject({
      lastName: "DOE-RIVERA",
      authorUsername: "hl7-interface",
    });
  });

  it("changes the study type and priority an order change carries, and keeps them when it carries none (XO)", async () => {
    const created = await send(fixtureMessage("epic-orm-o01", { CONTROL: nextControlId(), PLACER: "ORD-XO-2" }));
    expect(readAckText(created).code).toBe("AA");
    const [order] = await orderOfPlacer(harness.database.db, "ORD-XO-2");
    const caseId = order?.caseId as string;
    expect(await caseOf(caseId)).toMatchObject({ studyType: "icu-ceeg", hasVideo: true, priority: "routine" });
    const changed = await send(
      fixtureMessage("epic-orm-o01", {
        CONTROL: nextControlId(),
        PLACER: "ORD-XO-2",
        CONTROL_CODE: "XO",
        SERVICE_CODE: "95708",
        SERVICE_TEXT: "EEG WO VIDEO 3-4 DAYS",
        PRIORITY: "S",
      }),
    );
    expect(readAckText(changed)).toMatchObject({ code: "AA" });
    expect(readAckText(changed).text).toContain("study type, video, priority changed");
    expect(await caseOf(caseId)).toMatchObject({ studyType: "ambulatory", hasVideo: false, priority: "stat" });
    const [update] = await harness.database.db
      .select()
      .from(caseActions)
      .where(eq(caseActions.caseId, caseId))
      .then((rows) => rows.filter((row) => row.action === "update" && "changes" in (row.details as object)));
    expect(update).toMatchObject({
      actorUsername: "hl7-interface",
      details: {
        changes: {
          studyType: { from: "icu-ceeg", to: "ambulatory" },
          hasVideo: { from: true, to: false },
          priority: { from: "routine", to: "stat" },
        },
      },
    });
    // No priority and an OBR-4 no rule recognises: the case keeps what it has.
    const silent = await send(
      fixtureMessage("epic-orm-o01", {
        CONTROL: nextControlId(),
        PLACER: "ORD-XO-2",
        CONTROL_CODE: "XO",
        SERVICE_CODE: "LAB123",
        SERVICE_TEXT: "NEURO CONSULT",
        PRIORITY: "",
      }),
    );
    expect(readAckText(silent).code).toBe("AA");
    expect(readAckText(silent).text).not.toContain("changed;");
    expect(await caseOf(caseId)).toMatchObject({ studyType: "ambulatory", hasVideo: false, priority: "stat" });
  });

  it("answers AE 204 for a cancel of an order never received", async () => {
    const ack = await send(
      fixtureMessage("epic-orm-o01", { CONTROL: nextControlId(), PLACER: "ORD-NEVER", CONTROL_CODE: "CA" }),
    );
    expect(readAckText(ack)).toMatchObject({ code: "AE", error: "204", location: "ORC^1^2^1^1" });
  });
});
