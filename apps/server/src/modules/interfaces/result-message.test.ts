import { createHash } from "node:crypto";
import { Hl7Message } from "@medplum/core";
import { describe, expect, it } from "vitest";
import { unescapeHl7 } from "../../hl7/hl7-text.js";
import { sampleReportInputs } from "../../testing/kits/reports-kit.js";
import type { ReportInputs } from "../reports/reports-service.js";
import { buildResultMessage, formattedText, type ResultMessageInput } from "./result-message.js";

/**
 * Golden files of what Vigil sends (`golden/*.hl7`): the exact text, one segment a line (on the wire segments end in
 * `\r`). A change to a builder shows as a diff of these files in review; `vitest -u` rewrites them.
 */

// A stand-in PDF, small enough to read in a golden file; its bytes travel as base64 whatever they are.
const pdf = Buffer.from("%PDF-1.7\n% golden file stand-in\n%%EOF\n", "latin1");

function inputFor(overrides: Partial<ResultMessageInput> = {}, inputs: ReportInputs = sampleReportInputs()) {
  return {
    style: "ORU^R01",
    controlId: "V0GOLDEN0000000001",
    at: new Date("2026-11-06T10:00:05Z"),
    sendingFacility: "NORTHWIND",
    profile: {
      sendingApplication: "EPIC",
      receivingApplication: "EPICCARE",
      receivingFacility: "MERCY",
      hl7Version: "2.5.1",
      mrnAssigningAuthority: "MERCY-MRN",
    },
    order: { placerOrderNumber: "ORD-778812", visitNumber: "V-20261105-17", mrnAssigningAuthority: "MERCY-MRN" },
    inputs,
    pdf,
    ...overrides,
  } satisfies ResultMessageInput;
}

const addendumInputs = (): ReportInputs => {
  const base = sampleReportInputs();
  return {
    ...base,
    report: { ...base.report, version: 2, kind: "addendum", issuedAt: "2026-11-07T09:30:00.000Z" },
    addenda: [
      {
        text: "Seizure count corrected:\nthree, not two.",
        author: { sub: null, username: "dr-reviewer", name: "Dr. Grace Hopper" },
        createdAt: "2026-11-07T09:30:00.000Z",
      },
    ],
  };
};

const lines = (text: string) => `${text.replaceAll("\r", "\n")}\n`;

describe("the result messages Vigil sends", () => {
  it("writes a signed report as ORU^R01: final, the hospital's order number, the impression and the PDF", async () => {
    const message = buildResultMessage(inputFor());
    expect(message.type).toBe("ORU^R01");
    await expect(lines(message.text)).toMatchFileSnapshot("golden/oru-r01-signed.hl7");
  });

  it("writes an addendum as a corrected ORU^R01 (OBR-25 C) with the same filler order number", async () => {
    const original = Hl7Message.parse(buildResultMessage(inputFor()).text);
    const message = buildResultMessage(inputFor({ controlId: "V0GOLDEN0000000002" }, addendumInputs()));
    await expect(lines(message.text)).toMatchFileSnapshot("golden/oru-r01-addendum.hl7");
    const parsed = Hl7Message.parse(message.text);
    expect(parsed.getSegment("OBR")?.getField(25)?.toString()).toBe("C");
    expect(parsed.getSegment("OBR")?.getField(3)?.toString()).toBe(original.getSegment("OBR")?.getField(3)?.toString());
    expect(parsed.getSegment("ORC")?.getField(3)?.toString()).toBe("CM-2026-000042^VIGIL");
    expect(parsed.getSegment("OBR")?.getField(2)?.toString()).toBe("ORD-778812^EPIC");
  });

  it("writes a document as MDM^T02 and its addendum as MDM^T08 naming the original in TXA-13", async () => {
    const document = buildResultMessage(inputFor({ style: "MDM^T02" }));
    expect(document.type).toBe("MDM^T02");
    await expect(lines(document.text)).toMatchFileSnapshot("golden/mdm-t02-signed.hl7");
    const edit = buildResultMessage(inputFor({ style: "MDM^T02", controlId: "V0GOLDEN0000000003" }, addendumInputs()));
    expect(edit.type).toBe("MDM^T08");
    await expect(lines(edit.text)).toMatchFileSnapshot("golden/mdm-t08-addendum.hl7");
    const txa = (text: string) => Hl7Message.parse(text).getSegment("TXA");
    expect(txa(edit.text)?.getField(13)?.toString()).toBe(txa(document.text)?.getField(12)?.toString());
    expect(txa(edit.text)?.getField(12)?.toString()).not.toBe(txa(document.text)?.getField(12)?.toString());
  });

  it("carries the PDF's exact bytes in OBX-5 of type ED, base64", () => {
    const parsed = Hl7Message.parse(buildResultMessage(inputFor()).text);
    const ed = parsed.getAllSegments("OBX").find((obx) => obx.getField(2)?.toString() === "ED");
    expect(ed?.getComponent(5, 2)).toBe("application");
    expect(ed?.getComponent(5, 3)).toBe("pdf");
    expect(ed?.getComponent(5, 4)).toBe("Base64");
    const bytes = Buffer.from(ed?.getComponent(5, 5) ?? "", "base64");
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(createHash("sha256").update(pdf).digest("hex"));
  });

  it("escapes HL7's separators in names and text, and writes other scripts as they are", () => {
    const base = sampleReportInputs();
    const inputs: ReportInputs = {
      ...base,
      patient: { ...base.patient, lastName: "O'Brien^Jr|x", firstName: "王小明", mrn: "MRN~7&8" },
      interpretation: { ...base.interpretation, impression: "Left > right\\slowing | see\r\nline two" },
    };
    const text = buildResultMessage(inputFor({}, inputs)).text;
    // Still seven segments: nothing in the text ended one or added a field.
    expect(text.split("\r").map((segment) => segment.slice(0, 3))).toEqual([
      "MSH",
      "PID",
      "PV1",
      "ORC",
      "OBR",
      "OBX",
      "OBX",
    ]);
    const pid = text.split("\r")[1] ?? "";
    expect(pid).toContain("O'Brien\\S\\Jr\\F\\x^王小明");
    expect(pid).toContain("MRN\\R\\7\\T\\8^^^MERCY-MRN^MR");
    const parsed = Hl7Message.parse(text);
    expect(unescapeHl7(parsed.getSegment("PID")?.getComponent(5, 1) ?? "")).toBe("O'Brien^Jr|x");
    expect(unescapeHl7(parsed.getSegment("PID")?.getComponent(5, 2) ?? "")).toBe("王小明");
    const obx = parsed.getAllSegments("OBX")[0];
    expect(obx?.getField(2)?.toString()).toBe("FT");
    expect(unescapeHl7(obx?.getField(5)?.toString() ?? "")).toContain("Left > right\\slowing | see\nline two");
  });

  it("breaks lines of free text with FT's \\.br\\", () => {
    expect(formattedText("a|b\nc^d\r\ne")).toBe("a\\F\\b\\.br\\c\\S\\d\\.br\\e");
  });

  it("leaves the order numbers empty for a case that did not come by interface, and keeps the filler", () => {
    const parsed = Hl7Message.parse(buildResultMessage(inputFor({ order: null })).text);
    expect(parsed.getSegment("OBR")?.getField(2)?.toString()).toBe("");
    expect(parsed.getSegment("OBR")?.getField(3)?.toString()).toBe("CM-2026-000042^VIGIL");
    expect(parsed.getSegment("PID")?.getField(3)?.toString()).toBe("MRN-0042^^^MERCY-MRN^MR");
  });
});
