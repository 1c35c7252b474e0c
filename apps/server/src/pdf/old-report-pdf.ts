import { createHash } from "node:crypto";
import type { ReportDocumentBlock } from "@vigil/contract";
import PDFDocument from "pdfkit";
import { buildReportDocument, type ReportContent } from "../modules/reports/report-document.js";
import type { ReportInputs } from "../modules/reports/report-inputs.js";

/**
 * The signed report as a PDF (pdfkit, in-process: no browser in the request path). Rendered once, when the version
 * is signed, from the document its stored inputs make (`report-document.ts`, which the printable page shows too); the bytes are kept and never rendered again, so this layout may change without
 * altering any delivered document. Every page carries the patient's name, MRN and case number and "Page i of n".
 */

export type RenderedPdf = { bytes: Buffer; sha256: string };

// The 14 standard PDF fonts need no file and are in every reader, but they encode WinAnsi only (Latin-1 and a few
// typographic marks): any other character would print as a wrong glyph. Text is folded to what they can show.
const winAnsiExtras = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");
const replacements: Record<string, string> = {
  "≥": ">=",
  "≤": "<=",
  "≠": "!=",
  "→": "->",
  "←": "<-",
  Ł: "L",
  ł: "l",
  Đ: "D",
  đ: "d",
  ı: "i",
  "\u202f": " ",
  "\u2009": " ",
  "\u2011": "-",
  "\u2212": "-",
};

export function toWinAnsi(text: string): string {
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if ((code >= 0x20 && code <= 0x7e) || code === 0x0a || (code >= 0xa0 && code <= 0xff) || winAnsiExtras.has(char)) {
      out += char;
      continue;
    }
    const replaced = replacements[char];
    if (replaced !== undefined) {
      out += replaced;
      continue;
    }
    const stripped = char.normalize("NFD").replace(/\p{M}/gu, "");
    out += [...stripped].every((part) => (part.codePointAt(0) ?? 0) <= 0xff) && stripped ? stripped : "?";
  }
  return out;
}

const margin = 54;
const footerHeight = 36;
const colours = { text: "#111111", muted: "#555555", rule: "#999999", addendum: "#8a1c1c" };

type Doc = InstanceType<typeof PDFDocument>;

function heading(doc: Doc, text: string): void {
  doc.moveDown(0.6);
  doc.font("Helvetica-Bold").fontSize(11).fillColor(colours.text).text(toWinAnsi(text));
  doc.moveDown(0.2);
}

function paragraph(doc: Doc, text: string): void {
  doc.font("Helvetica").fontSize(10).fillColor(colours.text).text(toWinAnsi(text), { align: "left" });
}

function field(doc: Doc, label: string, value: string): void {
  doc
    .font("Helvetica-Bold")
    .fontSize(9.5)
    .fillColor(colours.muted)
    .text(toWinAnsi(`${label}: `), { continued: true })
    .font("Helvetica")
    .fillColor(colours.text)
    .text(toWinAnsi(value));
}

function rule(doc: Doc): void {
  const y = doc.y + 4;
  doc
    .moveTo(margin, y)
    .lineTo(doc.page.width - margin, y)
    .lineWidth(0.5)
    .strokeColor(colours.rule)
    .stroke();
  doc.y = y + 6;
}

function writeHeader(doc: Doc, report: ReportContent): void {
  doc.font("Helvetica-Bold").fontSize(15).fillColor(colours.text).text(toWinAnsi(report.company.name));
  if (report.company.details) {
    doc.font("Helvetica").fontSize(9).fillColor(colours.muted).text(toWinAnsi(report.company.details));
  }
  doc.moveDown(0.3);
  doc.font("Helvetica").fontSize(9.5).fillColor(colours.text).text(toWinAnsi(report.preparedFor));
  if (report.clientLines.length > 0) {
    doc
      .fontSize(9)
      .fillColor(colours.muted)
      .text(toWinAnsi(report.clientLines.join(" · ")));
  }
  doc.moveDown(0.5);
  doc.font("Helvetica-Bold").fontSize(14).fillColor(colours.text).text(toWinAnsi(report.title));
  if (report.kind === "addendum") {
    doc.moveDown(0.2);
    doc.font("Helvetica-Bold").fontSize(11).fillColor(colours.addendum).text(toWinAnsi(report.status));
  } else {
    doc.font("Helvetica").fontSize(9.5).fillColor(colours.muted).text(toWinAnsi(report.status));
  }
  rule(doc);
}

function writeBlock(doc: Doc, block: ReportDocumentBlock): void {
  if (block.kind === "fields") {
    for (const row of block.rows) field(doc, row.label, row.value);
  } else if (block.kind === "paragraph") {
    paragraph(doc, block.text);
  } else {
    for (const item of block.items) {
      paragraph(doc, item);
      doc.moveDown(0.2);
    }
  }
}

function writeBody(doc: Doc, report: ReportContent): void {
  for (const section of report.sections) {
    heading(doc, section.heading);
    for (const block of section.blocks) writeBlock(doc, block);
  }
  rule(doc);
  doc.font("Helvetica-Bold").fontSize(10).fillColor(colours.text).text(toWinAnsi(report.signature));
}

function writeAddenda(doc: Doc, report: ReportContent): void {
  for (const addendum of report.addenda) {
    doc.moveDown(0.8);
    doc.font("Helvetica-Bold").fontSize(11).fillColor(colours.addendum).text(toWinAnsi(addendum.heading));
    doc.moveDown(0.2);
    paragraph(doc, addendum.text);
  }
}

function writeFooters(doc: Doc, report: ReportContent): void {
  const range = doc.bufferedPageRange();
  for (let index = 0; index < range.count; index += 1) {
    doc.switchToPage(range.start + index);
    // The footer sits inside the bottom margin: without lifting it, pdfkit would start a new page for it.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = doc.page.height - margin + 8;
    doc
      .font("Helvetica")
      .fontSize(8)
      .fillColor(colours.muted)
      .text(toWinAnsi(report.runningHeader), margin, y, { width: doc.page.width - 2 * margin - 80, lineBreak: false });
    doc.text(`Page ${index + 1} of ${range.count}`, doc.page.width - margin - 80, y, {
      width: 80,
      align: "right",
      lineBreak: false,
    });
    doc.page.margins.bottom = bottom;
  }
}

/** Renders one report version; the same inputs give the same text (the bytes are stored, not re-rendered). */
export async function renderReportPdf(inputs: ReportInputs): Promise<RenderedPdf> {
  const report = buildReportDocument(inputs);
  const issued = new Date(inputs.report.issuedAt);
  const doc = new PDFDocument({
    size: "LETTER",
    margins: { top: margin, left: margin, right: margin, bottom: margin + footerHeight },
    bufferPages: true,
    info: {
      Title: toWinAnsi(`${inputs.report.title} - ${inputs.case.number}`),
      Author: toWinAnsi(inputs.company.name),
      Subject: toWinAnsi(`${inputs.patient.name}, MRN ${inputs.patient.mrn}`),
      Producer: "Vigil",
      Creator: "Vigil",
      CreationDate: issued,
      ModDate: issued,
    },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on("end", resolve);
    doc.on("error", reject);
  });
  writeHeader(doc, report);
  writeBody(doc, report);
  writeAddenda(doc, report);
  writeFooters(doc, report);
  doc.end();
  await ended;
  const bytes = Buffer.concat(chunks);
  return { bytes, sha256: createHash("sha256").update(bytes).digest("hex") };
}
