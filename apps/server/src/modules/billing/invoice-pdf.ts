import { createHash } from "node:crypto";
import type { Invoice } from "@vigil/contract";
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

/**
 * An invoice, credit note or supplementary invoice as a PDF (pdfkit in-process, the report PDF's archival settings
 * and embedded Noto fonts, so a hospital's or patient's name prints in any script Vigil supports). Rendered once,
 * in the issuing transaction; the bytes and their SHA-256 are stored and served as they are, so this layout may
 * change without altering an issued document. The creation date is the issue instant, so the same invoice renders
 * the same text.
 */

export type RenderedPdf = { bytes: Buffer; sha256: string };

const margin = 54;
const footerHeight = 30;
const colours = { text: "#111111", muted: "#555555", rule: "#999999" };

const styles = {
  company: { weight: "bold", size: 15, color: colours.text },
  companyDetails: { weight: "regular", size: 9, color: colours.muted },
  title: { weight: "bold", size: 16, color: colours.text },
  label: { weight: "bold", size: 9, color: colours.muted },
  value: { weight: "regular", size: 9.5, color: colours.text },
  head: { weight: "bold", size: 8.5, color: colours.muted },
  cell: { weight: "regular", size: 9, color: colours.text },
  detail: { weight: "regular", size: 8, color: colours.muted },
  total: { weight: "bold", size: 10.5, color: colours.text },
  footer: { weight: "regular", size: 8, color: colours.muted },
} satisfies Record<string, TextStyle>;

export const invoiceTitles: Record<Invoice["kind"], string> = {
  invoice: "Invoice",
  supplementary: "Supplementary invoice",
  "credit-note": "Credit note",
};

/** "1234567.5" → "1,234,567.50"; a decimal string in, never through a binary float. */
export function groupedAmount(decimal: string): string {
  const negative = decimal.startsWith("-");
  const [whole = "0", fraction = ""] = decimal.replace(/^-/, "").split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${negative ? "-" : ""}${grouped}.${fraction.padEnd(2, "0").slice(0, 2)}`;
}

function money(decimal: string, currency: string): string {
  return `${currency} ${groupedAmount(decimal)}`;
}

type Struct = PDFKit.PDFStructureElement;

function tagged(doc: PdfDoc, parent: Struct, type: string, draw: () => void): void {
  parent.add(doc.struct(type, {}, draw));
}

function rule(doc: PdfDoc, y = doc.y + 3): void {
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
  doc.y = y + 5;
}

/** Columns of a line's first row: case, service dates, hours, rate, amount (x and width in points). */
function columnsOf(doc: PdfDoc) {
  const right = doc.page.width - margin;
  return {
    case: { x: margin, width: 150 },
    dates: { x: margin + 155, width: 140 },
    hours: { x: right - 230, width: 60 },
    rate: { x: right - 165, width: 70 },
    amount: { x: right - 90, width: 90 },
  };
}

function writeRow(doc: PdfDoc, cells: [keyof ReturnType<typeof columnsOf>, string][], style: TextStyle): void {
  const columns = columnsOf(doc);
  const y = doc.y;
  let bottom = y;
  for (const [key, text] of cells) {
    const column = columns[key];
    const align = key === "hours" || key === "rate" || key === "amount" ? "right" : "left";
    writeText(doc, text, style, { width: column.width, align }, { x: column.x, y });
    bottom = Math.max(bottom, doc.y);
  }
  doc.x = margin;
  doc.y = bottom;
}

function ensureRoom(doc: PdfDoc, height: number): void {
  if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
}

function writeHeader(doc: PdfDoc, root: Struct, invoice: Invoice): void {
  tagged(doc, root, "P", () => writeText(doc, invoice.issuer.name, styles.company));
  if (invoice.issuer.details) {
    tagged(doc, root, "P", () => writeText(doc, invoice.issuer.details, styles.companyDetails));
  }
  doc.moveDown(0.8);
  tagged(doc, root, "H1", () => writeText(doc, `${invoiceTitles[invoice.kind]} ${invoice.number}`, styles.title));
  doc.moveDown(0.4);
  const facts: [string, string][] = [
    ["Issue date", invoice.issueDate],
    ...(invoice.kind === "credit-note"
      ? []
      : ([
          ["Due date", invoice.dueDate],
          ["Payment terms", `Net ${invoice.paymentTermsDays} days`],
        ] as [string, string][])),
    ["Service month", invoice.month],
    ...(invoice.billTo.poNumber ? ([["PO number", invoice.billTo.poNumber]] as [string, string][]) : []),
    ...(invoice.corrects ? ([["Corrects invoice", invoice.corrects.number]] as [string, string][]) : []),
    ...(invoice.reason ? ([["Reason", invoice.reason]] as [string, string][]) : []),
  ];
  for (const [label, value] of facts) {
    tagged(doc, root, "P", () => {
      writeText(doc, `${label}: `, styles.label, { continued: true });
      writeText(doc, value, styles.value);
    });
  }
  doc.moveDown(0.6);
  tagged(doc, root, "P", () => writeText(doc, "Bill to", styles.label));
  tagged(doc, root, "P", () =>
    writeText(doc, invoice.billTo.name, { weight: "bold", size: styles.value.size, color: styles.value.color }),
  );
  for (const line of invoice.billTo.address) tagged(doc, root, "P", () => writeText(doc, line, styles.value));
  doc.moveDown(0.8);
}

function writeLines(doc: PdfDoc, root: Struct, invoice: Invoice): void {
  const head = (): void => {
    artifact(doc, () =>
      writeRow(
        doc,
        [
          ["case", "Case"],
          ["dates", "Service dates"],
          ["hours", "Hours"],
          ["rate", "Rate"],
          ["amount", "Amount"],
        ],
        styles.head,
      ),
    );
    rule(doc);
  };
  head();
  for (const line of invoice.lines) {
    ensureRoom(doc, 40);
    if (doc.y === doc.page.margins.top) head();
    tagged(doc, root, "P", () => {
      writeRow(
        doc,
        [
          ["case", line.caseNumber],
          ["dates", line.serviceFrom === line.serviceTo ? line.serviceFrom : `${line.serviceFrom} – ${line.serviceTo}`],
          ["hours", line.hours],
          ["rate", groupedAmount(line.hourlyRate)],
          ["amount", groupedAmount(line.amount)],
        ],
        styles.cell,
      );
    });
    // An invoice's line names its CPT codes; a correction's says what changed.
    const summary = invoice.kind === "invoice" ? `CPT: ${line.cptSummary}` : line.cptSummary;
    const detail = [line.patientName ? `Patient: ${line.patientName}` : null, summary].filter(Boolean).join(" · ");
    tagged(doc, root, "P", () =>
      writeText(doc, detail, styles.detail, { width: doc.page.width - 2 * margin }, { x: margin, y: doc.y }),
    );
    doc.moveDown(0.3);
  }
  rule(doc);
}

function writeTotals(doc: PdfDoc, root: Struct, invoice: Invoice): void {
  ensureRoom(doc, 70);
  const width = 260;
  const x = doc.page.width - margin - width;
  const rows: [string, string, TextStyle][] = [
    ["Subtotal", money(invoice.subtotal, invoice.currency), styles.value],
    ...(invoice.taxRatePercent
      ? ([[`Tax (${invoice.taxRatePercent} %)`, money(invoice.tax, invoice.currency), styles.value]] as [
          string,
          string,
          TextStyle,
        ][])
      : []),
    [
      invoice.kind === "credit-note" ? "Total credited" : "Total due",
      money(invoice.total, invoice.currency),
      styles.total,
    ],
  ];
  for (const [label, value, style] of rows) {
    const y = doc.y;
    tagged(doc, root, "P", () => {
      writeText(
        doc,
        `${label}: `,
        { weight: style.weight, size: style.size, color: colours.muted },
        { width: 130, align: "right" },
        { x, y },
      );
      writeText(doc, value, style, { width: width - 135, align: "right" }, { x: x + 135, y });
    });
    doc.x = margin;
    doc.moveDown(0.2);
  }
}

function writeFooters(doc: PdfDoc, invoice: Invoice): void {
  writePageFooters(
    doc,
    margin,
    styles.footer,
    `${invoiceTitles[invoice.kind]} ${invoice.number} · ${invoice.billTo.name}`,
  );
}

/** Renders an invoice as issued (everything but `pdfSha256`, which is this rendering's digest). */
export async function renderInvoicePdf(invoice: Omit<Invoice, "pdfSha256">): Promise<RenderedPdf> {
  const full = { pdfSha256: "", ...invoice };
  const doc = createArchivalPdf({
    size: "LETTER",
    margins: { top: margin, left: margin, right: margin, bottom: margin + footerHeight },
    lang: "en-US",
    info: {
      Title: `${invoiceTitles[invoice.kind]} ${invoice.number}`,
      Author: invoice.issuer.name,
      Subject: `${invoice.billTo.name}, ${invoice.month}`,
      CreationDate: new Date(invoice.issuedAt),
    },
  });
  const root = doc.struct("Document");
  doc.addStructure(root);
  writeHeader(doc, root, full);
  writeLines(doc, root, full);
  writeTotals(doc, root, full);
  root.end();
  writeFooters(doc, full);
  const bytes = await finishPdf(doc);
  return { bytes, sha256: createHash("sha256").update(bytes).digest("hex") };
}
