import { createHash } from "node:crypto";
import { criticalFindingKindLabels, formatInstantInZone } from "@vigil/contract";
import PDFDocument from "pdfkit";
import type { ReportCriticalFinding, ReportInputs } from "./report-inputs.js";
import { studyTypeLabel } from "./report-inputs.js";
import { describeBackground, describeFindings, describeSeizures } from "./report-prose.js";

/**
 * The signed report as a PDF (pdfkit, in-process: no browser in the request path). Rendered once, when the version
 * is signed, from its stored inputs; the bytes are kept and never rendered again, so this layout may change without
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

function inZone(instant: string | null, inputs: ReportInputs): string {
  return instant ? formatInstantInZone(instant, inputs.client.timeZone) : "not recorded";
}

function heading(doc: Doc, text: string): void {
  doc.moveDown(0.6);
  doc.font("Helvetica-Bold").fontSize(11).fillColor(colours.text).text(toWinAnsi(text));
  doc.moveDown(0.2);
}

function paragraph(doc: Doc, text: string, fallback = "None recorded."): void {
  doc
    .font("Helvetica")
    .fontSize(10)
    .fillColor(colours.text)
    .text(toWinAnsi(text.trim() || fallback), { align: "left" });
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

function writeHeader(doc: Doc, inputs: ReportInputs): void {
  doc.font("Helvetica-Bold").fontSize(15).fillColor(colours.text).text(toWinAnsi(inputs.company.name));
  if (inputs.company.details) {
    doc.font("Helvetica").fontSize(9).fillColor(colours.muted).text(toWinAnsi(inputs.company.details));
  }
  doc.moveDown(0.3);
  doc
    .font("Helvetica")
    .fontSize(9.5)
    .fillColor(colours.text)
    .text(toWinAnsi(`Prepared for ${inputs.client.name}`));
  const clientLines = [...inputs.client.address, inputs.client.phone ? `Phone ${inputs.client.phone}` : ""].filter(
    Boolean,
  );
  if (clientLines.length > 0) {
    doc
      .fontSize(9)
      .fillColor(colours.muted)
      .text(toWinAnsi(clientLines.join(" · ")));
  }
  doc.moveDown(0.5);
  doc.font("Helvetica-Bold").fontSize(14).fillColor(colours.text).text(toWinAnsi(inputs.report.title));
  if (inputs.report.kind === "addendum") {
    const latest = inputs.addenda[inputs.addenda.length - 1];
    doc.moveDown(0.2);
    doc
      .font("Helvetica-Bold")
      .fontSize(11)
      .fillColor(colours.addendum)
      .text(
        toWinAnsi(
          `ADDENDUM (version ${inputs.report.version}): Addendum ${inputs.addenda.length} was added on ${inZone(latest?.createdAt ?? null, inputs)}. The report as originally signed on ${inZone(inputs.signedAt, inputs)} follows unchanged; the addenda are at the end.`,
        ),
      );
  } else {
    doc.font("Helvetica").fontSize(9.5).fillColor(colours.muted).text("Final report (version 1)");
  }
  rule(doc);
}

function writePatient(doc: Doc, inputs: ReportInputs): void {
  const { patient } = inputs;
  heading(doc, "Patient and study");
  field(doc, "Patient", patient.name);
  field(doc, "MRN", patient.mrn || "not recorded");
  field(doc, "Date of birth", patient.dateOfBirth ?? "not recorded");
  field(doc, "Sex", patient.sex);
  if (patient.location) field(doc, "Location", patient.location);
  if (patient.referringPhysician) field(doc, "Referring physician", patient.referringPhysician);
  field(doc, "Case", inputs.case.number);
  field(
    doc,
    "Study",
    `${studyTypeLabel(inputs.case.studyType)}${inputs.case.video ? ", with video" : ", without video"}`,
  );
  field(
    doc,
    "Recording",
    `${inZone(inputs.case.recordingStartedAt, inputs)} to ${inputs.case.recordingEndedAt ? inZone(inputs.case.recordingEndedAt, inputs) : "ongoing"}`,
  );
  field(
    doc,
    "Period of this report",
    `${inZone(inputs.interpretation.periodFrom, inputs)} to ${inZone(inputs.interpretation.periodTo, inputs)}`,
  );
}

function findingLine(finding: ReportCriticalFinding, inputs: ReportInputs): string {
  const parts = [
    `${criticalFindingKindLabels[finding.kind]}: EEG onset ${inZone(finding.onsetAt, inputs)}, raised ${inZone(finding.raisedAt, inputs)} by ${finding.raisedBy}.`,
    finding.description ? `${finding.description.trim().replace(/\.?$/, ".")}` : "",
    finding.notified.length > 0
      ? `Notified: ${finding.notified.map((entry) => `${entry.name} (${inZone(entry.at, inputs)})`).join("; ")}.`
      : "No notification recorded.",
  ];
  if (finding.acknowledgement) {
    const ack = finding.acknowledgement;
    parts.push(
      `Acknowledged by ${ack.name} ${ack.via === "phone" ? "by phone" : "by link"} at ${inZone(ack.at, inputs)}${ack.readBack ? ", read back" : ""}.`,
    );
  } else if (finding.cancellation) {
    parts.push(`Cancelled at ${inZone(finding.cancellation.at, inputs)}: ${finding.cancellation.reason}`);
  } else {
    parts.push("Not yet acknowledged when this report was signed.");
  }
  return parts.filter(Boolean).join(" ");
}

function writeBody(doc: Doc, inputs: ReportInputs): void {
  const data = inputs.interpretation;
  heading(doc, "Clinical history");
  paragraph(doc, data.history);
  heading(doc, "Technical description");
  paragraph(doc, data.technicalDescription);
  heading(doc, "Background");
  paragraph(doc, describeBackground(data.background), "Not described.");
  heading(doc, "Findings (ACNS 2021 terminology)");
  for (const line of describeFindings(data.findings)) {
    doc.font("Helvetica").fontSize(10).fillColor(colours.text).text(toWinAnsi(line), { indent: 0 });
    doc.moveDown(0.2);
  }
  heading(doc, "Seizures");
  paragraph(doc, describeSeizures(data.seizures));
  heading(doc, "Critical findings and notifications");
  if (inputs.criticalFindings.length === 0) paragraph(doc, "No critical finding was raised for this period.");
  for (const finding of inputs.criticalFindings) {
    paragraph(doc, findingLine(finding, inputs));
    doc.moveDown(0.2);
  }
  heading(doc, "Impression");
  paragraph(doc, data.impression);
  heading(doc, "Clinical correlation");
  paragraph(doc, data.clinicalCorrelation);
  rule(doc);
  const signer = inputs.signedBy.name
    ? `${inputs.signedBy.name} (${inputs.signedBy.username})`
    : inputs.signedBy.username;
  doc
    .font("Helvetica-Bold")
    .fontSize(10)
    .fillColor(colours.text)
    .text(toWinAnsi(`Electronically signed by ${signer} on ${inZone(inputs.signedAt, inputs)}`));
}

function writeAddenda(doc: Doc, inputs: ReportInputs): void {
  inputs.addenda.forEach((addendum, index) => {
    doc.moveDown(0.8);
    const author = addendum.author.name
      ? `${addendum.author.name} (${addendum.author.username})`
      : addendum.author.username;
    doc
      .font("Helvetica-Bold")
      .fontSize(11)
      .fillColor(colours.addendum)
      .text(toWinAnsi(`Addendum ${index + 1}, by ${author} on ${inZone(addendum.createdAt, inputs)}`));
    doc.moveDown(0.2);
    paragraph(doc, addendum.text);
  });
}

function writeFooters(doc: Doc, inputs: ReportInputs): void {
  const range = doc.bufferedPageRange();
  for (let index = 0; index < range.count; index += 1) {
    doc.switchToPage(range.start + index);
    // The footer sits inside the bottom margin: without lifting it, pdfkit would start a new page for it.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = doc.page.height - margin + 8;
    const left = toWinAnsi(
      `${inputs.patient.name} · MRN ${inputs.patient.mrn || "not recorded"} · ${inputs.case.number}${inputs.report.kind === "addendum" ? ` · Addendum (version ${inputs.report.version})` : ""}`,
    );
    doc
      .font("Helvetica")
      .fontSize(8)
      .fillColor(colours.muted)
      .text(left, margin, y, { width: doc.page.width - 2 * margin - 80, lineBreak: false });
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
  writeHeader(doc, inputs);
  writePatient(doc, inputs);
  writeBody(doc, inputs);
  writeAddenda(doc, inputs);
  writeFooters(doc, inputs);
  doc.end();
  await ended;
  const bytes = Buffer.concat(chunks);
  return { bytes, sha256: createHash("sha256").update(bytes).digest("hex") };
}
