import type { StatementOfAccount } from "@vigil/contract";
import {
  artifact,
  createArchivalPdf,
  finishPdf,
  type PdfDoc,
  type TextStyle,
  writePageFooters,
  writeText,
} from "../../pdf/pdf-document.js";
import { groupedAmount } from "./invoice-pdf.js";

/**
 * A client's statement of account as a PDF, with the report PDF's archival settings and embedded fonts
 * (`pdf/pdf-document.ts`): the opening balance, every entry with its running balance (the table head repeated on
 * each page) and the closing balance. Rendered on request; unlike an invoice it is a view, not a kept document.
 */

const margin = 48;
const colours = { text: "#111111", muted: "#555555", rule: "#999999" };
const styles = {
  company: { weight: "bold", size: 13, color: colours.text },
  title: { weight: "bold", size: 15, color: colours.text },
  value: { weight: "regular", size: 9.5, color: colours.text },
  head: { weight: "bold", size: 8, color: colours.muted },
  cell: { weight: "regular", size: 8.5, color: colours.text },
  total: { weight: "bold", size: 9.5, color: colours.text },
  footer: { weight: "regular", size: 8, color: colours.muted },
} satisfies Record<string, TextStyle>;

type Column = "date" | "document" | "description" | "debit" | "credit" | "balance";

function columnsOf(doc: PdfDoc): Record<Column, { x: number; width: number }> {
  const right = doc.page.width - margin;
  return {
    date: { x: margin, width: 62 },
    document: { x: margin + 64, width: 92 },
    description: { x: margin + 158, width: right - 240 - (margin + 158) },
    debit: { x: right - 236, width: 76 },
    credit: { x: right - 158, width: 76 },
    balance: { x: right - 80, width: 80 },
  };
}

function writeRow(doc: PdfDoc, cells: Record<Column, string>, style: TextStyle): void {
  const columns = columnsOf(doc);
  const y = doc.y;
  let bottom = y;
  for (const key of Object.keys(columns) as Column[]) {
    const column = columns[key];
    const align = key === "debit" || key === "credit" || key === "balance" ? "right" : "left";
    writeText(doc, cells[key], style, { width: column.width, align }, { x: column.x, y });
    bottom = Math.max(bottom, doc.y);
  }
  doc.x = margin;
  doc.y = bottom + 2;
}

function rule(doc: PdfDoc): void {
  const y = doc.y + 1;
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
  doc.y = y + 4;
}

const amount = (value: string) => (value === "0.00" ? "" : groupedAmount(value));

export async function renderStatementOfAccountPdf(
  statement: StatementOfAccount,
  issuer: { name: string; details: string },
): Promise<Buffer> {
  const doc = createArchivalPdf({
    size: "LETTER",
    margins: { top: margin, left: margin, right: margin, bottom: margin + 24 },
    lang: "en-US",
    info: {
      Title: `Statement of account, ${statement.client.name}`,
      Author: issuer.name || "Vigil",
      Subject: `${statement.from} – ${statement.to}`,
      CreationDate: new Date(`${statement.to}T00:00:00Z`),
    },
  });
  const root = doc.struct("Document");
  doc.addStructure(root);
  const paragraph = (draw: () => void) => root.add(doc.struct("P", {}, draw));
  if (issuer.name) paragraph(() => writeText(doc, issuer.name, styles.company));
  doc.moveDown(0.5);
  root.add(doc.struct("H1", {}, () => writeText(doc, "Statement of account", styles.title)));
  paragraph(() =>
    writeText(doc, statement.client.name, { weight: "bold", size: styles.value.size, color: styles.value.color }),
  );
  paragraph(() =>
    writeText(
      doc,
      `${statement.from} – ${statement.to} · ${statement.currency} · dates in ${statement.client.timezone}`,
      styles.value,
    ),
  );
  doc.moveDown(0.6);
  const head = () => {
    artifact(doc, () =>
      writeRow(
        doc,
        {
          date: "Date",
          document: "Document",
          description: "Description",
          debit: "Debit",
          credit: "Credit",
          balance: "Balance",
        },
        styles.head,
      ),
    );
    rule(doc);
  };
  head();
  const blank = { document: "", debit: "", credit: "" };
  paragraph(() =>
    writeRow(
      doc,
      {
        date: statement.from,
        description: "Balance brought forward",
        balance: groupedAmount(statement.openingBalance),
        ...blank,
      },
      styles.cell,
    ),
  );
  for (const entry of statement.entries) {
    if (doc.y + 30 > doc.page.height - doc.page.margins.bottom) {
      doc.addPage();
      head();
    }
    paragraph(() =>
      writeRow(
        doc,
        {
          date: entry.date,
          document: entry.document,
          description: entry.description,
          debit: amount(entry.debit),
          credit: amount(entry.credit),
          balance: groupedAmount(entry.balance),
        },
        styles.cell,
      ),
    );
  }
  rule(doc);
  paragraph(() =>
    writeRow(
      doc,
      {
        date: statement.to,
        description: "Balance",
        balance: `${statement.currency} ${groupedAmount(statement.closingBalance)}`,
        ...blank,
      },
      styles.total,
    ),
  );
  root.end();
  writePageFooters(doc, margin, styles.footer, `Statement of account · ${statement.client.name}`);
  return finishPdf(doc);
}
