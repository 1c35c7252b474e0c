import { createHash } from "node:crypto";
import type { ReportDocumentBlock } from "@vigil/contract";
import type PDFKit from "pdfkit";
import {
  artifact,
  createArchivalPdf,
  finishPdf,
  type PdfDoc,
  type TextStyle,
  writePageFooters,
  writeText,
} from "../../pdf/pdf-document.js";
import { buildReportDocument, type ReportContent } from "./report-document.js";
import type { ReportInputs } from "./report-inputs.js";

/**
 * The signed report as a PDF (pdfkit, in-process: no browser in the request path). Rendered once, when the version
 * is signed, from the document its stored inputs make (`report-document.ts`, which the printable page shows too); the
 * bytes are kept and never rendered again, so this layout may change without altering any delivered document. Every
 * page carries the patient's name, MRN and case number and "Page i of n". The file is PDF/A-2b and tagged, its text in
 * embedded Noto subsets that print names in Latin, Greek, Cyrillic, Chinese, Japanese and Korean as entered
 * (`pdf/pdf-document.ts`, `pdf/pdf-fonts.ts`).
 */

export type RenderedPdf = { bytes: Buffer; sha256: string };

const margin = 54;
const footerHeight = 36;
const colours = { text: "#111111", muted: "#555555", rule: "#999999", addendum: "#8a1c1c" };

const styles = {
  company: { weight: "bold", size: 15, color: colours.text },
  companyDetails: { weight: "regular", size: 9, color: colours.muted },
  preparedFor: { weight: "regular", size: 9.5, color: colours.text },
  clientLines: { weight: "regular", size: 9, color: colours.muted },
  title: { weight: "bold", size: 14, color: colours.text },
  status: { weight: "regular", size: 9.5, color: colours.muted },
  addendumStatus: { weight: "bold", size: 11, color: colours.addendum },
  heading: { weight: "bold", size: 11, color: colours.text },
  body: { weight: "regular", size: 10, color: colours.text },
  label: { weight: "bold", size: 9.5, color: colours.muted },
  value: { weight: "regular", size: 9.5, color: colours.text },
  signature: { weight: "bold", size: 10, color: colours.text },
  footer: { weight: "regular", size: 8, color: colours.muted },
} satisfies Record<string, TextStyle>;

type Struct = PDFKit.PDFStructureElement;

/** One structure element (H1, P, …) holding what `draw` prints, appended to `parent`. */
function tagged(doc: PdfDoc, parent: Struct, type: string, draw: () => void): void {
  parent.add(doc.struct(type, {}, draw));
}

function rule(doc: PdfDoc): void {
  const y = doc.y + 4;
  artifact(
    doc,
    () => {
      doc
        .moveTo(margin, y)
        .lineTo(doc.page.width - margin, y)
        .lineWidth(0.5)
        .strokeColor(colours.rule)
        .stroke();
    },
    "Layout",
  );
  doc.y = y + 6;
}

function writeHeader(doc: PdfDoc, root: Struct, report: ReportContent): void {
  tagged(doc, root, "P", () => writeText(doc, report.company.name, styles.company));
  if (report.company.details) {
    tagged(doc, root, "P", () => writeText(doc, report.company.details, styles.companyDetails));
  }
  doc.moveDown(0.3);
  tagged(doc, root, "P", () => writeText(doc, report.preparedFor, styles.preparedFor));
  if (report.clientLines.length > 0) {
    tagged(doc, root, "P", () => writeText(doc, report.clientLines.join(" · "), styles.clientLines));
  }
  doc.moveDown(0.5);
  tagged(doc, root, "H1", () => writeText(doc, report.title, styles.title));
  if (report.kind === "addendum") {
    doc.moveDown(0.2);
    tagged(doc, root, "P", () => writeText(doc, report.status, styles.addendumStatus));
  } else {
    tagged(doc, root, "P", () => writeText(doc, report.status, styles.status));
  }
  rule(doc);
}

function writeBlock(doc: PdfDoc, section: Struct, block: ReportDocumentBlock): void {
  if (block.kind === "fields") {
    for (const row of block.rows) {
      tagged(doc, section, "P", () => {
        writeText(doc, `${row.label}: `, styles.label, { continued: true });
        writeText(doc, row.value, styles.value);
      });
    }
  } else if (block.kind === "paragraph") {
    tagged(doc, section, "P", () => writeText(doc, block.text, styles.body, { align: "left" }));
  } else {
    const list = doc.struct("L");
    section.add(list);
    for (const item of block.items) {
      list.add(
        doc.struct("LI", {}, [
          doc.struct("LBody", {}, () => {
            writeText(doc, item, styles.body, { align: "left" });
            doc.moveDown(0.2);
          }),
        ]),
      );
    }
    list.end();
  }
}

function writeBody(doc: PdfDoc, root: Struct, report: ReportContent): void {
  for (const section of report.sections) {
    const element = doc.struct("Sect");
    root.add(element);
    doc.moveDown(0.6);
    tagged(doc, element, "H2", () => writeText(doc, section.heading, styles.heading));
    doc.moveDown(0.2);
    for (const block of section.blocks) writeBlock(doc, element, block);
    element.end();
  }
  rule(doc);
  tagged(doc, root, "P", () => writeText(doc, report.signature, styles.signature));
  for (const line of report.signatureDetails ?? []) tagged(doc, root, "P", () => writeText(doc, line, styles.body));
}

function writeAddenda(doc: PdfDoc, root: Struct, report: ReportContent): void {
  for (const addendum of report.addenda) {
    const element = doc.struct("Sect");
    root.add(element);
    doc.moveDown(0.8);
    tagged(doc, element, "H2", () =>
      writeText(doc, addendum.heading, {
        weight: styles.heading.weight,
        size: styles.heading.size,
        color: colours.addendum,
      }),
    );
    doc.moveDown(0.2);
    tagged(doc, element, "P", () => writeText(doc, addendum.text, styles.body, { align: "left" }));
    element.end();
  }
}

function writeFooters(doc: PdfDoc, report: ReportContent): void {
  writePageFooters(doc, margin, styles.footer, report.runningHeader);
}

/** Renders one report version; the same inputs give the same text (the bytes are stored, not re-rendered). */
export async function renderReportPdf(inputs: ReportInputs): Promise<RenderedPdf> {
  const report = buildReportDocument(inputs);
  const doc = createArchivalPdf({
    size: "LETTER",
    margins: { top: margin, left: margin, right: margin, bottom: margin + footerHeight },
    lang: "en-US",
    info: {
      Title: `${inputs.report.title} - ${inputs.case.number}`,
      Author: inputs.company.name,
      Subject: `${inputs.patient.name}, MRN ${inputs.patient.mrn}`,
      CreationDate: new Date(inputs.report.issuedAt),
    },
  });
  const root = doc.struct("Document");
  doc.addStructure(root);
  writeHeader(doc, root, report);
  writeBody(doc, root, report);
  writeAddenda(doc, root, report);
  root.end();
  writeFooters(doc, report);
  const bytes = await finishPdf(doc);
  return { bytes, sha256: createHash("sha256").update(bytes).digest("hex") };
}
