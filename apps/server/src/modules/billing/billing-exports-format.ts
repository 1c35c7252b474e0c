import type { BillingExportAccountsContent, BillingExportFormat } from "@vigil/contract";
import { stringify } from "csv-stringify/sync";
import type { ExportedDocument, ExportedPayment } from "./billing-exports-repository.js";
import { amountCentsFor, centsOf, centsOfMoney, moneyOfCents } from "./billing-money.js";

/**
 * The accountant's files (BILLING.md "Exports for the accountant"), built from what was issued and received:
 * QuickBooks Desktop IIF (one TRNS/SPL…/ENDTRNS group per document, each summing to zero), and the CSV layouts
 * QuickBooks Online's and Xero's invoice imports read. Each document's rows are built apart, so an export can
 * fingerprint what it carried for each one.
 */

export type ExportInput = {
  documents: readonly ExportedDocument[];
  payments: readonly ExportedPayment[];
  reversals: readonly ExportedPayment[];
  accounts: BillingExportAccountsContent;
};

/** One document's part of the file: its id, number and kind for the history, and its rows. */
export type ExportPart = {
  id: string;
  number: string;
  kind: string;
  issueDate: string;
  total: string;
  rows: string[][];
};

/** QuickBooks (US) and the US Xero template read dates as MM/DD/YYYY. */
function usDate(iso: string): string {
  const [year, month, day] = iso.split("-");
  return `${month}/${day}/${year}`;
}

/** IIF is tab-separated, one record a line: tabs and line breaks inside a value would break the record. */
function iifText(value: string): string {
  return value.replace(/[\t\r\n]+/g, " ").trim();
}

/**
 * Quantity and unit price that multiply to the line's amount: hours × rate when they do (a month's line), else 1 ×
 * the amount (a correction at another rate bills or credits money, not hours). Imports multiply them again.
 */
function quantityAndPrice(line: ExportedDocument["lines"][number]): { quantity: string; price: string } {
  const hundredths = Math.abs(centsOfMoney(line.hours));
  const product = amountCentsFor(hundredths, centsOf(line.hourlyRate));
  if (Number(product) === Math.abs(centsOfMoney(line.amount)) && hundredths > 0) {
    return { quantity: moneyOfCents(hundredths), price: line.hourlyRate };
  }
  return { quantity: "1.00", price: moneyOfCents(Math.abs(centsOfMoney(line.amount))) };
}

function lineMemo(line: ExportedDocument["lines"][number]): string {
  return `Case ${line.caseNumber}, ${line.serviceFrom} to ${line.serviceTo}: ${line.cptSummary}`;
}

export const iifHeader = [
  ["!TRNS", "TRNSID", "TRNSTYPE", "DATE", "ACCNT", "NAME", "AMOUNT", "DOCNUM", "MEMO", "DUEDATE"],
  ["!SPL", "SPLID", "TRNSTYPE", "DATE", "ACCNT", "NAME", "AMOUNT", "DOCNUM", "MEMO", "INVITEM", "QNTY", "PRICE"],
  ["!ENDTRNS"],
];

/**
 * An invoice posts its total to receivables (debit, +) and each line and the tax to income and tax (credits, −);
 * a credit note the reverse, as a CREDIT MEMO. The TRNS amount is minus the sum of the SPL amounts in cents, so
 * every group balances by construction (the lines sum to the subtotal as issued, plus the tax, is the total).
 */
function iifDocument(document: ExportedDocument, accounts: BillingExportAccountsContent): string[][] {
  const credit = document.kind === "credit-note";
  const sign = credit ? 1 : -1;
  const type = credit ? "CREDIT MEMO" : "INVOICE";
  const date = usDate(document.issueDate);
  const name = iifText(document.clientName);
  const income = credit ? accounts.creditNotesAccount : accounts.incomeAccount;
  const splits = document.lines.map((line) => {
    const cents = sign * centsOfMoney(line.amount);
    const { quantity, price } = quantityAndPrice(line);
    // QuickBooks keeps an invoice's sold quantities negative, as the income they credit.
    const signed = cents < 0 ? `-${quantity}` : quantity;
    return [
      "SPL",
      "",
      type,
      date,
      iifText(income),
      name,
      moneyOfCents(cents),
      document.number,
      iifText(lineMemo(line)),
      iifText(accounts.serviceItem),
      signed,
      price,
    ];
  });
  const taxCents = centsOfMoney(document.taxAmount);
  if (taxCents !== 0) {
    splits.push([
      "SPL",
      "",
      type,
      date,
      iifText(accounts.taxAccount),
      name,
      moneyOfCents(sign * taxCents),
      document.number,
      "Sales tax",
      "",
      "",
      "",
    ]);
  }
  const splitSum = splits.reduce((sum, split) => sum + centsOfMoney(split[6] as string), 0);
  const memo = document.correctsNumber ? `Corrects ${document.correctsNumber}` : `Monitoring ${document.month}`;
  return [
    [
      "TRNS",
      "",
      type,
      date,
      iifText(accounts.receivablesAccount),
      name,
      moneyOfCents(-splitSum),
      document.number,
      iifText(memo),
      usDate(document.dueDate),
    ],
    ...splits,
    ["ENDTRNS"],
  ];
}

/** A payment: received into undeposited funds, out of receivables; a reversal the other way, as a journal. */
function iifPayment(payment: ExportedPayment, accounts: BillingExportAccountsContent, reversal: boolean): string[][] {
  const type = reversal ? "GENERAL JOURNAL" : "PAYMENT";
  const date = usDate(payment.onDate);
  const name = iifText(payment.clientName);
  const cents = reversal ? -payment.amountCents : payment.amountCents;
  const reference = iifText(payment.reference ?? "");
  const memo = reversal ? "Payment reversed" : "Payment received";
  return [
    ["TRNS", "", type, date, iifText(accounts.undepositedFundsAccount), name, moneyOfCents(cents), reference, memo, ""],
    [
      "SPL",
      "",
      type,
      date,
      iifText(accounts.receivablesAccount),
      name,
      moneyOfCents(-cents),
      reference,
      memo,
      "",
      "",
      "",
    ],
    ["ENDTRNS"],
  ];
}

/** QuickBooks Online's invoice import (its default column names, so they map themselves). */
export const quickBooksOnlineColumns = [
  "InvoiceNo",
  "Customer",
  "InvoiceDate",
  "DueDate",
  "Terms",
  "Memo",
  "Item(Product/Service)",
  "ItemDescription",
  "ItemQuantity",
  "ItemRate",
  "ItemAmount",
  "ServiceDate",
] as const;

function quickBooksOnlineDocument(document: ExportedDocument, accounts: BillingExportAccountsContent): string[][] {
  return document.lines.map((line) => [
    document.number,
    document.clientName,
    usDate(document.issueDate),
    usDate(document.dueDate),
    `Net ${document.paymentTermsDays}`,
    document.correctsNumber ? `Corrects ${document.correctsNumber}` : (document.poNumber ?? ""),
    accounts.serviceItem,
    lineMemo(line),
    quantityAndPrice(line).quantity,
    quantityAndPrice(line).price,
    line.amount,
    usDate(line.serviceTo),
  ]);
}

/** Xero's sales invoice import template; a document whose total is negative imports as a credit note. */
export const xeroColumns = [
  "*ContactName",
  "EmailAddress",
  "POAddressLine1",
  "POAddressLine2",
  "POAddressLine3",
  "POAddressLine4",
  "POCity",
  "PORegion",
  "POPostalCode",
  "POCountry",
  "*InvoiceNumber",
  "Reference",
  "*InvoiceDate",
  "*DueDate",
  "InventoryItemCode",
  "*Description",
  "*Quantity",
  "*UnitAmount",
  "Discount",
  "*AccountCode",
  "*TaxType",
  "TrackingName1",
  "TrackingOption1",
  "TrackingName2",
  "TrackingOption2",
  "Currency",
  "BrandingTheme",
] as const;

function xeroDocument(document: ExportedDocument, accounts: BillingExportAccountsContent): string[][] {
  const credit = document.kind === "credit-note";
  const reference = document.correctsNumber ? `Corrects ${document.correctsNumber}` : (document.poNumber ?? "");
  return document.lines.map((line) => [
    document.billToName,
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    document.number,
    reference,
    usDate(document.issueDate),
    usDate(document.dueDate),
    "",
    lineMemo(line),
    quantityAndPrice(line).quantity,
    // A line's amount with its sign on the document: a credit note's total comes out negative.
    (credit ? -1 : 1) * Math.sign(centsOfMoney(line.amount)) < 0
      ? `-${quantityAndPrice(line).price}`
      : quantityAndPrice(line).price,
    "",
    credit ? accounts.creditNotesAccount : accounts.incomeAccount,
    accounts.taxType,
    "",
    "",
    "",
    "",
    document.currency,
    "",
  ]);
}

function documentPart(document: ExportedDocument, rows: string[][]): ExportPart {
  return {
    id: document.id,
    number: document.number,
    kind: document.kind,
    issueDate: document.issueDate,
    total: document.total,
    rows,
  };
}

function paymentPart(payment: ExportedPayment, rows: string[][], reversal: boolean): ExportPart {
  return {
    id: payment.id,
    number: payment.reference ?? payment.id.slice(0, 8),
    kind: reversal ? "payment-reversal" : "payment",
    issueDate: payment.onDate,
    total: moneyOfCents(payment.amountCents),
    rows,
  };
}

/**
 * Each document's rows in `format`. QuickBooks Online's invoice import takes invoices only: its file leaves out
 * credit notes and payments (the IIF and Xero carry credit notes; the IIF carries payments too).
 */
export function exportParts(format: BillingExportFormat, input: ExportInput): ExportPart[] {
  const { accounts } = input;
  if (format === "iif") {
    return [
      ...input.documents.map((document) => documentPart(document, iifDocument(document, accounts))),
      ...input.payments.map((payment) => paymentPart(payment, iifPayment(payment, accounts, false), false)),
      ...input.reversals.map((payment) => paymentPart(payment, iifPayment(payment, accounts, true), true)),
    ];
  }
  if (format === "quickbooks-online-csv") {
    return input.documents
      .filter((document) => document.kind !== "credit-note")
      .map((document) => documentPart(document, quickBooksOnlineDocument(document, accounts)));
  }
  return input.documents.map((document) => documentPart(document, xeroDocument(document, accounts)));
}

/** The file: the IIF's header and groups joined with tabs and CRLF, or a CSV with its header row. */
export function exportFile(format: BillingExportFormat, parts: readonly ExportPart[]): string {
  const rows = parts.flatMap((part) => part.rows);
  if (format === "iif") return `${[...iifHeader, ...rows].map((row) => row.join("\t")).join("\r\n")}\r\n`;
  const columns = format === "quickbooks-online-csv" ? quickBooksOnlineColumns : xeroColumns;
  return stringify([[...columns], ...rows], { record_delimiter: "windows" });
}
