import { Hl7Message } from "@medplum/core";
import { describe, expect, it } from "vitest";
import {
  ackWanted,
  applicationAckCode,
  buildAck,
  buildAckText,
  formatHl7Timestamp,
  immediateAckCode,
  newControlId,
  readAck,
  readAckMode,
} from "./hl7-ack.js";
import { readHeader } from "./hl7-text.js";

const order = [
  "MSH|^~\\&|EPIC|ST_MARYS|VIGIL|VIGIL_EEG|20260301083000-0500||ORM^O01^ORM_O01|MSG00042|P|2.5.1|||||USA|UNICODE UTF-8",
  "PID|1||E1234567^^^ST_MARYS^MR||DOE^JANE||19800101|F",
  "ORC|NW|PLC-778",
].join("\r");
const at = new Date("2026-03-01T13:30:05.250Z");

describe("HL7 v2.5.1 acknowledgements", () => {
  it("answers an original-mode message with AA: swapped identities, new control id, ACK^O01^ACK, same version", () => {
    const ack = buildAck(Hl7Message.parse(order), { code: "AA", controlId: "ACK0001", at });
    expect(ack.toString().split("\r")).toEqual([
      "MSH|^~\\&|VIGIL|VIGIL_EEG|EPIC|ST_MARYS|20260301133005+0000||ACK^O01^ACK|ACK0001|P|2.5.1||||||UNICODE UTF-8",
      "MSA|AA|MSG00042",
    ]);
  });

  it("carries MSA-3 text and one ERR per error with its location, table 0357 code and severity", () => {
    const text = buildAckText(Hl7Message.parse(order), {
      code: "AE",
      controlId: "ACK0002",
      at,
      errors: [
        { code: 101, location: { segment: "PID", field: 3 }, text: "PID-3 (the MRN) is required." },
        { code: 204, location: { segment: "ORC", sequence: 1, field: 2, component: 1 }, severity: "W", text: "A|B^C" },
      ],
    });
    expect(text.split("\r").slice(1)).toEqual([
      "MSA|AE|MSG00042|PID-3 (the MRN) is required.",
      "ERR||PID^1^3|101^Required field missing^HL70357|E||||PID-3 (the MRN) is required.",
      "ERR||ORC^1^2^1^1|204^Unknown key identifier^HL70357|W||||A\\F\\B\\S\\C",
    ]);
    const read = readAck(Hl7Message.parse(text));
    expect(read).toMatchObject({ code: "AE", acknowledgedControlId: "MSG00042", text: "PID-3 (the MRN) is required." });
    expect(read?.errors[1]).toEqual({
      code: "204",
      codeText: "Unknown key identifier",
      location: "ORC^1^2^1^1",
      severity: "W",
      text: "A|B^C",
    });
  });

  it("keeps the sender's own delimiters, so copied fields stay intact", () => {
    const odd = "MSH#*~!@#LAB*MAIN#FAC#VIGIL#EEG#20260301##ADT*A08#X9#T#2.3";
    const text = buildAckText(Hl7Message.parse(odd), { code: "AA", controlId: "C1", at, text: "ok # fine" });
    expect(text).toBe(
      "MSH#*~!@#VIGIL#EEG#LAB*MAIN#FAC#20260301133005+0000##ACK*A08*ACK#C1#T#2.3\rMSA#AA#X9#ok !F! fine",
    );
  });

  it("writes MSH-9 as plain ACK when the inbound message named no event", () => {
    const text = buildAckText(Hl7Message.parse("MSH|^~\\&|A|B|C|D|20260301||ACK|Q1|P|2.5.1"), { code: "AA", at });
    expect(text.split("\r")[0]?.split("|")[8]).toBe("ACK");
  });

  it("answers from a header alone, or with standard delimiters and no MSA-2 when even that is unreadable", () => {
    const header = readHeader("MSH|^~\\&|A|B|C|D|20260301||ORU^R01|Z77|P|2.5.1\rOBX|garbage");
    const fromHeader = buildAckText(header, { code: "AR", controlId: "C2", at, errors: [{ code: 100 }] });
    expect(fromHeader.split("\r")).toEqual([
      "MSH|^~\\&|C|D|A|B|20260301133005+0000||ACK^R01^ACK|C2|P|2.5.1",
      "MSA|AR|Z77",
      "ERR|||100^Segment sequence error^HL70357|E",
    ]);
    const blind = buildAckText(undefined, { code: "AR", controlId: "C3", at, errors: [{ code: 102, text: "bad" }] });
    expect(blind.split("\r").slice(1)).toEqual(["MSA|AR||bad", "ERR|||102^Data type error^HL70357|E||||bad"]);
  });

  it("reads original mode when MSH-15 and MSH-16 are empty, enhanced mode otherwise", () => {
    const withModes = (accept: string, application: string) =>
      readAckMode(Hl7Message.parse(`MSH|^~\\&|A|B|C|D|1||ADT^A01|1|P|2.5.1|||${accept}|${application}`));
    expect(withModes("", "")).toEqual({ kind: "original" });
    expect(withModes("AL", "NE")).toEqual({ kind: "enhanced", accept: "AL", application: "NE" });
    expect(withModes("", "AL")).toEqual({ kind: "enhanced", accept: "AL", application: "AL" });
    expect(withModes("ER", "")).toEqual({ kind: "enhanced", accept: "ER", application: "NE" });
    expect(withModes("XX", "SU")).toEqual({ kind: "enhanced", accept: "AL", application: "SU" });
  });

  it("answers commit acks CA/CE/CR in enhanced mode and AA/AE/AR in original mode", () => {
    const enhanced = { kind: "enhanced", accept: "AL", application: "AL" } as const;
    expect(["accept", "error", "reject"].map((o) => immediateAckCode({ kind: "original" }, o as never))).toEqual([
      "AA",
      "AE",
      "AR",
    ]);
    expect(["accept", "error", "reject"].map((o) => immediateAckCode(enhanced, o as never))).toEqual([
      "CA",
      "CE",
      "CR",
    ]);
    expect(applicationAckCode("error")).toBe("AE");
  });

  it("sends an ack per table 0155: AL always, NE never, ER on error only, SU on success only", () => {
    const table = (["AL", "NE", "ER", "SU"] as const).map((condition) =>
      (["accept", "error", "reject"] as const).map((outcome) => ackWanted(condition, outcome)),
    );
    expect(table).toEqual([
      [true, true, true],
      [false, false, false],
      [false, true, true],
      [true, false, false],
    ]);
  });

  it("makes control ids unique and within MSH-10's 20 characters", () => {
    const ids = new Set(Array.from({ length: 2000 }, () => newControlId()));
    expect(ids.size).toBe(2000);
    for (const id of ids) expect(id).toMatch(/^[A-Z0-9]{1,20}$/);
  });

  it("writes timestamps in UTC with the offset spelled out", () => {
    expect(formatHl7Timestamp(new Date("2026-12-31T23:59:59.999Z"))).toBe("20261231235959+0000");
  });

  it("does not take a message without MSA, or with an unknown MSA-1, for an acknowledgement", () => {
    expect(readAck(Hl7Message.parse(order))).toBeUndefined();
    expect(readAck(Hl7Message.parse("MSH|^~\\&|A|B|C|D|1||ACK|1|P|2.5.1\rMSA|OK|1"))).toBeUndefined();
  });
});
