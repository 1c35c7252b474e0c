import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caseOrders, cases } from "../../db/schema.js";
import { callerFor } from "../../testing/kits/caller-kit.js";
import { createClient } from "../../testing/kits/cases-kit.js";
import { addInterfaceProfile, fixtureMessage, nextControlId, readAckText } from "../../testing/kits/inbound-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { receiveHl7Message } from "./inbound-service.js";

let harness: TestApp;

beforeAll(async () => {
  harness = await createTestApp();
  const client = await createClient(await callerFor(harness, "robust-admin", ["admin"]));
  await addInterfaceProfile(harness.database.db, client.id, { sendingApplication: "EPIC", sendingFacility: "UCHMC" });
});
afterAll(() => harness.close());

const valid = () => fixtureMessage("epic-orm-o01", { CONTROL: nextControlId("R"), PLACER: nextControlId("P") });

/** Messages a sender's mistakes or a hostile peer produce, each still shaped enough to reach processing. */
const broken: Record<string, () => string> = {
  "no MSH at all": () => "PID|1||123",
  "an MSH with nothing after its delimiters": () => "MSH|^~\\&",
  "no control id": () => valid().replace(/\|ORM\^O01\^ORM_O01\|[^|]+\|/, "|ORM^O01^ORM_O01||"),
  "no sender": () => valid().replace("|EPIC|UCHMC|", "|||"),
  "no message type": () => valid().replace("ORM^O01^ORM_O01", ""),
  "no PID": () =>
    valid()
      .split("\r")
      .filter((segment) => !segment.startsWith("PID"))
      .join("\r"),
  "no ORC or OBR": () =>
    valid()
      .split("\r")
      .filter((segment) => !/^(ORC|OBR)/.test(segment))
      .join("\r"),
  "escape sequences and delimiters inside names": () => valid().replace("DOE^JANE", "O\\T\\BRIEN\\F\\X^J\\S\\\\E\\"),
  "a date of birth in 1800s text": () => valid().replace("|19700501|", "|eighteen-ten|"),
  "a 200 kB order reason": () => valid().replace("Unspecified convulsions", "x".repeat(200_000)),
  "an unknown order control": () => valid().replace("ORC|NW|", "ORC|ZZ|"),
  "line feeds instead of carriage returns": () => valid().split("\r").join("\n"),
  "a name of 500 characters": () => valid().replace("DOE^JANE", `${"D".repeat(500)}^JANE`),
};

describe("messages no hospital should send", () => {
  it.each(Object.keys(broken))("answer %s with an ACK and leave no half-written case", async (name) => {
    const casesBefore = (await harness.database.db.select({ id: cases.id }).from(cases)).length;
    const ordersBefore = (await harness.database.db.select({ id: caseOrders.caseId }).from(caseOrders)).length;
    const ack = await receiveHl7Message(harness.database.db, (broken[name] as () => string)(), { address: "10.0.0.9" });
    expect(ack).toMatch(/^MSH/);
    const { code } = readAckText(ack);
    expect(["AA", "AE", "AR"]).toContain(code);
    const casesAfter = (await harness.database.db.select({ id: cases.id }).from(cases)).length;
    const ordersAfter = (await harness.database.db.select({ id: caseOrders.caseId }).from(caseOrders)).length;
    // Either the whole effect (one case with its order) or none of it.
    expect(casesAfter - casesBefore).toBe(ordersAfter - ordersBefore);
    expect(casesAfter - casesBefore).toBe(code === "AA" ? 1 : 0);
  });
});
