import { Hl7Message } from "@medplum/core";
import { describe, expect, it } from "vitest";
import { buildOrderStatusMessage, type OrderStatusMessageInput } from "./order-status-message.js";

/** The golden file of the order status Vigil sends (`golden/orm-o01-status.hl7`), one segment a line. */

function inputFor(overrides: Partial<OrderStatusMessageInput> = {}): OrderStatusMessageInput {
  return {
    controlId: "V0GOLDEN0000000010",
    at: new Date("2026-11-05T22:14:00Z"),
    sendingFacility: "NORTHWIND",
    profile: {
      sendingApplication: "EPIC",
      receivingApplication: "EPICCARE",
      receivingFacility: "MERCY",
      hl7Version: "2.5.1",
      mrnAssigningAuthority: "MERCY-MRN",
    },
    order: { placerOrderNumber: "ORD-778812", visitNumber: "V-20261105-17", mrnAssigningAuthority: "MERCY-MRN" },
    caseNumber: "CM-2026-000042",
    studyType: "icu-ceeg",
    patient: { mrn: "MRN-0042", firstName: "Ada", lastName: "O'Brien^Jr", dateOfBirth: "1961-03-14", sex: "female" },
    status: "IP",
    ...overrides,
  };
}

describe("the order status Vigil sends back to the hospital", () => {
  it("writes monitoring started as ORM^O01, ORC-1 SC and ORC-5 IP, with both order numbers", async () => {
    const message = buildOrderStatusMessage(inputFor());
    expect(message.type).toBe("ORM^O01");
    await expect(`${message.text.replaceAll("\r", "\n")}\n`).toMatchFileSnapshot("golden/orm-o01-status-ip.hl7");
    const parsed = Hl7Message.parse(message.text);
    expect(parsed.getSegment("MSH")?.getField(9)?.toString()).toBe("ORM^O01^ORM_O01");
    expect(parsed.getSegment("ORC")?.getField(1)?.toString()).toBe("SC");
    expect(parsed.getSegment("ORC")?.getField(2)?.toString()).toBe("ORD-778812^EPIC");
    expect(parsed.getSegment("ORC")?.getField(3)?.toString()).toBe("CM-2026-000042^VIGIL");
    expect(parsed.getSegment("ORC")?.getField(5)?.toString()).toBe("IP");
    expect(parsed.getSegment("PID")?.getField(5)?.toString()).toBe("O'Brien\\S\\Jr^Ada");
  });

  it("writes completed and cancelled in ORC-5, and v2.3.1's MSH-9 without a structure", () => {
    const completed = Hl7Message.parse(buildOrderStatusMessage(inputFor({ status: "CM" })).text);
    expect(completed.getSegment("ORC")?.getField(5)?.toString()).toBe("CM");
    const old = buildOrderStatusMessage(
      inputFor({ status: "CA", profile: { ...inputFor().profile, hl7Version: "2.3.1" } }),
    );
    const parsed = Hl7Message.parse(old.text);
    expect(parsed.getSegment("MSH")?.getField(9)?.toString()).toBe("ORM^O01");
    expect(parsed.getSegment("MSH")?.getField(12)?.toString()).toBe("2.3.1");
    expect(parsed.getSegment("ORC")?.getField(5)?.toString()).toBe("CA");
  });
});
