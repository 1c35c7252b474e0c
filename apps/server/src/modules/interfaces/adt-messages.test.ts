import type { Client } from "@vigil/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caseActions, casePatientDetails } from "../../db/schema.js";
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
let admin: Caller;
let client: Client;
const peer = { address: "10.20.30.41" };

beforeAll(async () => {
  harness = await createTestApp();
  admin = await callerFor(harness, "adt-admin", ["admin"]);
  client = await createClient(admin);
  await addInterfaceProfile(harness.database.db, client.id, { sendingApplication: "EPIC", sendingFacility: "UCHMC" });
});
afterAll(() => harness.close());

const send = (text: string) => receiveHl7Message(harness.database.db, text, peer);

async function orderedCase(placer: string, mrn: string, values: Record<string, string> = {}): Promise<string> {
  const ack = await send(
    fixtureMessage("epic-orm-o01", { CONTROL: nextControlId(), PLACER: placer, MRN: mrn, ...values }),
  );
  expect(readAckText(ack).code).toBe("AA");
  const [order] = await orderOfPlacer(harness.database.db, placer);
  return order?.caseId as string;
}

describe("ADT", () => {
  it("A08 appends a patient-details revision by the interface to each open case of the patient", async () => {
    const caseId = await orderedCase("ADT-1", "A100001");
    const control = nextControlId("A08");
    const ack = await send(
      fixtureMessage("epic-adt", { CONTROL: control, EVENT: "A08", MRN: "A100001", LAST: "DOE-HILL", ROOM: "415" }),
    );
    expect(readAckText(ack).code).toBe("AA");
    const revisions = await harness.database.db
      .select()
      .from(casePatientDetails)
      .where(eq(casePatientDetails.caseId, caseId));
    expect(revisions.find((revision) => revision.revision === 2)).toMatchObject({
      lastName: "DOE-HILL",
      locationRoom: "415",
      authorUsername: "hl7-interface",
      authorSub: null,
    });
    expect(revisions.find((revision) => revision.revision === 2)?.reason).toContain(control);
    const [row] = await inboundRow(harness.database.db, control);
    expect(row).toMatchObject({ messageType: "ADT^A08", status: "processed", caseId, patientMrn: "A100001" });
  });

  it("A01 with nothing new, or for a patient without an open case, is acknowledged and changes nothing", async () => {
    const caseId = await orderedCase("ADT-2", "A100002");
    const same = await send(fixtureMessage("epic-adt", { CONTROL: nextControlId(), EVENT: "A01", MRN: "A100002" }));
    expect(readAckText(same).text).toContain("already current");
    const unknown = await send(fixtureMessage("epic-adt", { CONTROL: nextControlId(), EVENT: "A04", MRN: "A999" }));
    expect(readAckText(unknown)).toMatchObject({ code: "AA", text: "No open case for this patient; nothing changed." });
    const revisions = await harness.database.db
      .select()
      .from(casePatientDetails)
      .where(eq(casePatientDetails.caseId, caseId));
    expect(revisions).toHaveLength(1);
  });

  it("A03 marks the open case's order discharged, puts it on the timeline and asks on the board", async () => {
    // A STAT order: its acknowledgement clock puts the case on the board.
    const caseId = await orderedCase("ADT-3", "A100003", { PRIORITY: "S" });
    const ack = await send(fixtureMessage("epic-adt", { CONTROL: nextControlId(), EVENT: "A03", MRN: "A100003" }));
    expect(readAckText(ack).code).toBe("AA");
    const [order] = await orderOfPlacer(harness.database.db, "ADT-3");
    expect(order?.dischargedAt).toBeInstanceOf(Date);
    const actions = await harness.database.db.select().from(caseActions).where(eq(caseActions.caseId, caseId));
    expect(actions.map((action) => action.action)).toContain("patient-discharged");
    const detail = await admin("GET", `/cases/${caseId}`);
    expect(detail.json().data.order.dischargedAt).not.toBeNull();
    const board = await admin("GET", `/board?clientId=${client.id}`);
    expect(board.statusCode, board.body).toBe(200);
    const onBoard = board.json().data.items.find((item: { caseId: string }) => item.caseId === caseId);
    expect(onBoard?.dischargedAt).toEqual(expect.any(String));
  });

  it("rejects an ADT event it does not take with AR 201", async () => {
    const ack = await send(fixtureMessage("epic-adt", { CONTROL: nextControlId(), EVENT: "A40", MRN: "A100003" }));
    expect(readAckText(ack)).toMatchObject({ code: "AR", error: "201" });
  });
});

describe("enhanced mode and the visit from PID-18 (a Cerner-style OML^O21)", () => {
  it("answers CA after storing, reads the visit number where the profile says", async () => {
    const cerner = await createClient(admin);
    await addInterfaceProfile(
      harness.database.db,
      cerner.id,
      { sendingApplication: "CERNER", sendingFacility: "MERCY" },
      { visitNumberSource: "PID-18" },
    );
    const control = nextControlId("CR");
    const ack = await send(
      fixtureMessage("cerner-oml-o21", {
        CONTROL: control,
        FACILITY: "MERCY",
        AUTHORITY: "MERCY",
        PLACER: "HNAM-1",
        MRN: "C100001",
        VISIT: "FIN777",
        PRIORITY: "S",
        SERVICE_CODE: "EEGLTM",
        SERVICE_TEXT: "Continuous EEG ICU",
      }),
    );
    expect(readAckText(ack).code).toBe("CA");
    const [order] = await orderOfPlacer(harness.database.db, "HNAM-1");
    expect(order).toMatchObject({
      clientId: cerner.id,
      visitNumber: "FIN777",
      orderingProvider: "Cora Brainard (8877)",
      reason: "Altered mental status, rule out NCSE",
      location: "NICU, room N12, bed 01",
    });
    const detail = await admin("GET", `/cases/${order?.caseId}`);
    expect(detail.json().data).toMatchObject({ priority: "stat", studyType: "icu-ceeg", patient: { sex: "male" } });
  });

  it("sends no commit ACK when MSH-15 is NE, and still stores and applies the message", async () => {
    const control = nextControlId("CR");
    const text = fixtureMessage("cerner-oml-o21", {
      CONTROL: control,
      FACILITY: "MERCY",
      AUTHORITY: "MERCY",
      PLACER: "HNAM-2",
      MRN: "C100002",
    }).replace("|||AL|NE|", "|||NE|NE|");
    expect(await send(text)).toBeNull();
    const [row] = await inboundRow(harness.database.db, control);
    expect(row).toMatchObject({ status: "processed", ackCode: "CA", ack: null });
    expect(await orderOfPlacer(harness.database.db, "HNAM-2")).toHaveLength(1);
  });
});
