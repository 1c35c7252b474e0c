import {
  type ClientBillingProfile,
  type Invoice,
  type InvoicePage,
  type InvoiceSummary,
  type IssuedStatement,
  invoiceCsvColumns,
  type invoiceExportQuerySchema,
  type invoiceListQuerySchema,
  type SetClientBillingProfile,
} from "@vigil/contract";
import { Temporal } from "temporal-polyfill";
import { auditedWrite } from "../../audit/audited-write.js";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import { centsOfMoney, differenceOf, moneyOfCents, percentText, plusOf, taxOf } from "./billing-money.js";
import { type BillingActor, type BillingSettings, requireBillingClient } from "./billing-service.js";
import { renderInvoicePdf } from "./invoice-pdf.js";
import { queueSendingOnIssue, requireBillingContacts } from "./invoice-sending-service.js";
import { invoiceStatusOf, openCentsOf } from "./invoice-status.js";
import {
  findBillingProfile,
  findClientAddress,
  findInvoice,
  findServiceDates,
  type InvoiceLineRow,
  type InvoiceWithClient,
  insertInvoice,
  listInvoiceRows,
  type ProfileRow,
  saveBillingProfile,
  takeDocumentNumber,
} from "./invoices-repository.js";

/**
 * Invoices (BILLING.md "Invoices"). Issuing a month's statement issues its invoice in the same transaction: a
 * number from the company's gapless yearly series, the client's billing profile (bill-to, PO number, payment
 * terms, tax, patient names), one line per case of the statement, and the PDF, rendered once and stored with its
 * SHA-256. Nothing of an issued invoice is ever changed; its status is derived when read.
 */

export const invoiceSeries = { invoice: "INV", supplementary: "INV", "credit-note": "CN" } as const;

/** "INV", 2026, 7 → "INV-2026-00007". */
export function invoiceNumberOf(series: string, year: number, sequence: number): string {
  return `${series}-${year}-${String(sequence).padStart(5, "0")}`;
}

const defaultProfile = { legalName: null, poNumber: null, paymentTermsDays: 30, taxRatePercent: null } as const;

function toProfile(clientId: string, row: ProfileRow | undefined): ClientBillingProfile {
  return {
    clientId,
    legalName: row?.legalName ?? defaultProfile.legalName,
    poNumber: row?.poNumber ?? defaultProfile.poNumber,
    paymentTermsDays: row?.paymentTermsDays ?? defaultProfile.paymentTermsDays,
    taxRatePercent: row?.taxRatePercent ? percentText(row.taxRatePercent) : null,
    showPatientNames: row?.showPatientNames ?? false,
    billingContactIds: row?.billingContactIds ?? [],
    sendOnIssue: row?.sendOnIssue ?? false,
    invoiceDelivery: row?.invoiceDelivery ?? "attachment",
    remindersEnabled: row?.remindersEnabled ?? true,
    reminderDays: row?.reminderDays ?? [7, 30],
    version: row?.version ?? null,
  };
}

/** "95700 ×1, 95720 ×2", or a dash when the CPT rules suggested nothing for the case. */
function cptSummaryOf(cpt: IssuedStatement["lines"][number]["cpt"]): string {
  return cpt.lines.length === 0 ? "—" : cpt.lines.map((line) => `${line.code} ×${line.units}`).join(", ");
}

/** Today's date in a time zone, as YYYY-MM-DD. */
export function todayIn(timezone: string, now: Date): string {
  return Temporal.Instant.fromEpochMilliseconds(now.getTime()).toZonedDateTimeISO(timezone).toPlainDate().toString();
}

function toSummary(found: InvoiceWithClient, today: string): InvoiceSummary {
  const { invoice, clientName, correctsNumber } = found;
  const figures = {
    kind: invoice.kind,
    dueDate: invoice.dueDate,
    totalCents: centsOfMoney(invoice.total),
    creditedCents: found.creditedCents,
    allocatedCents: found.allocatedCents,
    writtenOffCents: found.writtenOffCents,
  };
  return {
    id: invoice.id,
    kind: invoice.kind,
    number: invoice.number,
    client: { id: invoice.clientId, name: clientName },
    month: invoice.month,
    issueDate: invoice.issueDate,
    dueDate: invoice.dueDate,
    currency: invoice.currency,
    subtotal: invoice.subtotal,
    tax: invoice.taxAmount,
    total: invoice.total,
    status: invoiceStatusOf(figures, today),
    open: moneyOfCents(openCentsOf(figures)),
    corrects:
      invoice.correctsInvoiceId && correctsNumber ? { id: invoice.correctsInvoiceId, number: correctsNumber } : null,
  };
}

function toInvoice(found: InvoiceWithClient & { lines: InvoiceLineRow[] }, today: string): Invoice {
  const { invoice } = found;
  return {
    statementId: invoice.statementId,
    reason: invoice.reason,
    paymentTermsDays: invoice.paymentTermsDays,
    billTo: { name: invoice.billToName, address: invoice.billToAddress, poNumber: invoice.poNumber },
    hourlyRate: invoice.hourlyRate,
    taxRatePercent: invoice.taxRatePercent ? percentText(invoice.taxRatePercent) : null,
    lines: found.lines.map((line) => ({
      caseId: line.caseId,
      caseNumber: line.caseNumber,
      patientName: line.patientName,
      serviceFrom: line.serviceFrom,
      serviceTo: line.serviceTo,
      hours: line.hours,
      hourlyRate: line.hourlyRate,
      amount: line.amount,
      cptSummary: line.cptSummary,
    })),
    pdfSha256: invoice.pdfSha256,
    issuedAt: invoice.issuedAt.toISOString(),
    issuedBy: { sub: invoice.issuedBySub, username: invoice.issuedByUsername, name: invoice.issuedByName },
    issuer: { name: invoice.issuerName, details: invoice.issuerDetails },
    ...toSummary(found, today),
  };
}

/** Issues the invoice of a statement just issued, in the caller's transaction (which holds the client row's lock). */
export async function issueInvoiceForStatement(
  tx: Db,
  statement: IssuedStatement,
  actor: BillingActor,
  settings: BillingSettings,
  now: Date,
): Promise<{ id: string; number: string }> {
  const clientId = statement.client.id;
  // One after the other: a transaction is one connection.
  const profile = toProfile(clientId, await findBillingProfile(tx, clientId));
  const address = await findClientAddress(tx, clientId);
  const issueDate = Temporal.PlainDate.from(todayIn(statement.client.timezone, now));
  const month = Temporal.PlainYearMonth.from(statement.month);
  const serviceDates = await findServiceDates(
    tx,
    clientId,
    statement.lines.map((line) => line.caseId),
    month.toPlainDate({ day: 1 }).toString(),
    month.toPlainDate({ day: month.daysInMonth }).toString(),
  );
  const subtotal = statement.totals.amount;
  const lines = statement.lines.map((line) => {
    const dates = serviceDates.get(line.caseId);
    return {
      caseId: line.caseId,
      caseNumber: line.caseNumber,
      patientName: profile.showPatientNames ? line.patientName : null,
      // A case's billed days always have kept figures; the month's ends are the fallback for an odd restore.
      serviceFrom: dates?.from ?? month.toPlainDate({ day: 1 }).toString(),
      serviceTo: dates?.to ?? month.toPlainDate({ day: month.daysInMonth }).toString(),
      hours: line.hours,
      hourlyRate: statement.rate.hourlyRate,
      amount: line.amount,
      cptSummary: cptSummaryOf(line.cpt),
    };
  });
  return storeDocument(tx, {
    kind: "invoice",
    clientId,
    clientName: statement.client.name,
    statementId: statement.id,
    corrects: null,
    reason: null,
    month: statement.month,
    issueDate,
    paymentTermsDays: profile.paymentTermsDays,
    billTo: { name: profile.legalName ?? statement.client.name, address, poNumber: profile.poNumber },
    currency: statement.currency,
    hourlyRate: statement.rate.hourlyRate,
    subtotal,
    taxRatePercent: profile.taxRatePercent,
    showsPatientNames: profile.showPatientNames,
    lines,
    actor,
    issuer: settings.issuer,
    now,
  });
}

type DocumentInput = {
  kind: Invoice["kind"];
  clientId: string;
  clientName: string;
  statementId: string;
  corrects: { id: string; number: string } | null;
  reason: string | null;
  month: string;
  issueDate: Temporal.PlainDate;
  paymentTermsDays: number;
  billTo: Invoice["billTo"];
  currency: string;
  hourlyRate: string;
  /** The sum of the lines, never negative (a credit note's lines are what it credits). */
  subtotal: string;
  taxRatePercent: string | null;
  showsPatientNames: boolean;
  lines: Invoice["lines"];
  actor: BillingActor;
  issuer: BillingSettings["issuer"];
  now: Date;
};

/**
 * Numbers, renders, stores and audits one document in the caller's transaction. The number is taken last before
 * rendering: the counter row stays locked until the transaction ends, so documents of one series are issued one
 * after the other, and a failure anywhere gives the number back.
 */
async function storeDocument(tx: Db, input: DocumentInput): Promise<{ id: string; number: string }> {
  const series = invoiceSeries[input.kind];
  const year = input.issueDate.year;
  const sequence = await takeDocumentNumber(tx, series, year);
  const number = invoiceNumberOf(series, year, sequence);
  const tax = taxOf(input.subtotal, input.taxRatePercent);
  const document: Omit<Invoice, "pdfSha256"> = {
    id: "",
    kind: input.kind,
    number,
    client: { id: input.clientId, name: input.clientName },
    month: input.month,
    issueDate: input.issueDate.toString(),
    dueDate: input.issueDate.add({ days: input.paymentTermsDays }).toString(),
    currency: input.currency,
    subtotal: input.subtotal,
    tax,
    total: plusOf(input.subtotal, tax),
    status: "issued",
    open: input.kind === "credit-note" ? "0.00" : plusOf(input.subtotal, tax),
    corrects: input.corrects,
    statementId: input.statementId,
    reason: input.reason,
    paymentTermsDays: input.paymentTermsDays,
    billTo: input.billTo,
    hourlyRate: input.hourlyRate,
    taxRatePercent: input.taxRatePercent,
    lines: input.lines,
    issuedAt: input.now.toISOString(),
    issuedBy: { sub: input.actor.sub, username: input.actor.username, name: input.actor.name },
    issuer: input.issuer,
  };
  const pdf = await renderInvoicePdf(document);
  const saved = await insertInvoice(
    tx,
    {
      kind: input.kind,
      series,
      year,
      sequence,
      number,
      clientId: input.clientId,
      statementId: input.statementId,
      correctsInvoiceId: input.corrects?.id ?? null,
      reason: input.reason,
      month: input.month,
      issueDate: document.issueDate,
      dueDate: document.dueDate,
      paymentTermsDays: input.paymentTermsDays,
      issuerName: input.issuer.name,
      issuerDetails: input.issuer.details,
      billToName: input.billTo.name,
      billToAddress: input.billTo.address,
      poNumber: input.billTo.poNumber,
      currency: input.currency,
      hourlyRate: input.hourlyRate,
      subtotal: input.subtotal,
      taxRatePercent: input.taxRatePercent,
      taxAmount: tax,
      total: document.total,
      showsPatientNames: input.showsPatientNames,
      pdf: pdf.bytes,
      pdfSha256: pdf.sha256,
      issuedAt: input.now,
      issuedBySub: input.actor.sub,
      issuedByUsername: input.actor.username,
      issuedByName: input.actor.name,
    },
    input.lines,
  );
  await recordAudit(
    tx,
    auditedWrite(
      input.actor,
      input.kind === "invoice"
        ? "billing.invoice.issued"
        : input.kind === "credit-note"
          ? "billing.credit-note.issued"
          : "billing.supplementary-invoice.issued",
      { type: "invoice", id: saved.invoice.id },
      {
        clientId: input.clientId,
        number,
        statementId: input.statementId,
        month: input.month,
        currency: input.currency,
        total: document.total,
        pdfSha256: pdf.sha256,
        ...(input.corrects ? { corrects: input.corrects.number, reason: input.reason } : {}),
      },
    ),
  );
  // The client's profile may ask for every new document to be e-mailed at once: queued in this transaction.
  await queueSendingOnIssue(tx, { id: saved.invoice.id, clientId: input.clientId }, input.actor);
  return { id: saved.invoice.id, number };
}

/** A month's differences still to carry, as the statement service computes them (current minus billed). */
export type DifferenceToCarry = {
  caseId: string;
  caseNumber: string;
  patientName: string;
  change: "added" | "removed" | "changed";
  billedHours: string;
  currentHours: string;
  hours: string;
  amount: string;
};

/**
 * Issues the supplementary invoice (the differences add up to more) or credit note (to less) that carries a
 * month's differences, correcting its invoice: billed to whom and with the tax rate that invoice was, due by the
 * same terms. A credit note's lines and totals are what it credits (positive), a supplementary invoice's what it
 * bills; a line going the other way is negative on it.
 */
export async function issueAdjustmentForStatement(
  tx: Db,
  input: {
    original: InvoiceWithClient;
    differences: readonly DifferenceToCarry[];
    net: string;
    currentRate: string;
    reason: string;
    timezone: string;
    actor: BillingActor;
    settings: BillingSettings;
    now: Date;
  },
): Promise<{ id: string; number: string }> {
  const { original } = input;
  const invoice = original.invoice;
  const kind = input.net.startsWith("-") ? "credit-note" : "supplementary";
  const direction = (value: string) => (kind === "credit-note" ? differenceOf("0.00", value) : value);
  const month = Temporal.PlainYearMonth.from(invoice.month);
  const firstDay = month.toPlainDate({ day: 1 }).toString();
  const lastDay = month.toPlainDate({ day: month.daysInMonth }).toString();
  const serviceDates = await findServiceDates(
    tx,
    invoice.clientId,
    input.differences.map((line) => line.caseId),
    firstDay,
    lastDay,
  );
  const lines = input.differences.map((line) => {
    const dates = serviceDates.get(line.caseId);
    return {
      caseId: line.caseId,
      caseNumber: line.caseNumber,
      patientName: invoice.showsPatientNames ? line.patientName : null,
      serviceFrom: dates?.from ?? firstDay,
      serviceTo: dates?.to ?? lastDay,
      hours: direction(line.hours),
      hourlyRate: input.currentRate,
      amount: direction(line.amount),
      cptSummary: `${line.change === "added" ? "Not billed before" : line.change === "removed" ? "No longer billable" : "Changed"}: ${line.billedHours} h billed, ${line.currentHours} h now`,
    };
  });
  return storeDocument(tx, {
    kind,
    clientId: invoice.clientId,
    clientName: original.clientName,
    statementId: invoice.statementId as string,
    corrects: { id: invoice.id, number: invoice.number },
    reason: input.reason,
    month: invoice.month,
    issueDate: Temporal.PlainDate.from(todayIn(input.timezone, input.now)),
    paymentTermsDays: invoice.paymentTermsDays,
    billTo: { name: invoice.billToName, address: invoice.billToAddress, poNumber: invoice.poNumber },
    currency: invoice.currency,
    hourlyRate: input.currentRate,
    subtotal: direction(input.net),
    taxRatePercent: invoice.taxRatePercent ? percentText(invoice.taxRatePercent) : null,
    showsPatientNames: invoice.showsPatientNames,
    lines,
    actor: input.actor,
    issuer: input.settings.issuer,
    now: input.now,
  });
}

function utcToday(now: Date): string {
  return now.toISOString().slice(0, 10);
}

async function requireInvoice(db: Db, id: string, asOf?: string) {
  const found = await findInvoice(db, id, asOf);
  if (!found) throw new AppError("not_found", `No invoice with id ${id}.`);
  return found;
}

/** `GET /billing/invoices/{id}`: the invoice as issued, its status as of today. */
export async function getInvoice(db: Db, id: string, now = new Date()): Promise<Invoice> {
  const today = utcToday(now);
  return toInvoice(await requireInvoice(db, id, today), today);
}

/** `GET /billing/invoices/{id}/pdf`: the stored bytes, never rendered again. */
export async function getInvoicePdf(db: Db, id: string): Promise<{ bytes: Buffer; fileName: string }> {
  const { invoice } = await requireInvoice(db, id);
  return { bytes: invoice.pdf, fileName: `${invoice.number}.pdf` };
}

type ListQuery = ReturnType<typeof invoiceListQuerySchema.parse>;
type ExportQuery = ReturnType<typeof invoiceExportQuerySchema.parse>;

/** `GET /billing/invoices`: newest first, filtered by client, kind, derived status and issue dates. */
export async function listInvoices(db: Db, query: ListQuery, now = new Date()): Promise<InvoicePage> {
  const today = utcToday(now);
  const { rows, total, sums } = await listInvoiceRows(
    db,
    { today, ...query },
    { limit: query.limit, offset: query.offset },
  );
  return {
    items: rows.map((row) => toSummary(row, today)),
    total,
    limit: query.limit,
    offset: query.offset,
    totals: sums.map((row) => ({ currency: row.currency, total: plusOf(row.total, "0") })),
  };
}

/** A CSV cell: quoted when needed; text starting with = + - @ is prefixed with ' (amounts are left as numbers). */
function cell(value: string | null, numeric = false): string {
  if (value === null) return "";
  let text = value;
  if (!numeric && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** `GET /billing/invoices/export`: every invoice the filters match, as CSV (header row, CRLF lines). */
export async function exportInvoicesCsv(db: Db, query: ExportQuery, now = new Date()): Promise<string> {
  const today = utcToday(now);
  const { rows } = await listInvoiceRows(db, { today, ...query }, undefined);
  const lines = rows.map((row) => {
    const summary = toSummary(row, today);
    return [
      cell(summary.number),
      cell(summary.kind),
      cell(summary.client.name),
      cell(summary.month),
      cell(summary.issueDate),
      cell(summary.dueDate),
      cell(summary.currency),
      cell(summary.subtotal, true),
      cell(summary.tax, true),
      cell(summary.total, true),
      cell(summary.status),
      cell(summary.corrects?.number ?? null),
    ].join(",");
  });
  return `${[invoiceCsvColumns.join(","), ...lines].join("\r\n")}\r\n`;
}

/** `GET /billing/clients/{client}/profile`: the stored profile, or the defaults. */
export async function getClientBillingProfile(db: Db, clientId: string): Promise<ClientBillingProfile> {
  await requireBillingClient(db, clientId);
  return toProfile(clientId, await findBillingProfile(db, clientId));
}

/**
 * `PUT /billing/clients/{client}/profile`: replaces the profile the user saw (409 when it changed since). Invoices
 * already issued keep the bill-to, terms and tax they were issued with.
 */
export async function setClientBillingProfile(
  db: Db,
  clientId: string,
  input: SetClientBillingProfile,
  actor: BillingActor,
): Promise<ClientBillingProfile> {
  return db.transaction(async (tx) => {
    await requireBillingClient(tx, clientId, "no key update");
    await requireBillingContacts(tx, clientId, input.billingContactIds ?? []);
    const saved = await saveBillingProfile(
      tx,
      {
        clientId,
        legalName: input.legalName || null,
        poNumber: input.poNumber || null,
        paymentTermsDays: input.paymentTermsDays,
        taxRatePercent: input.taxRatePercent ? percentText(input.taxRatePercent) : null,
        showPatientNames: input.showPatientNames,
        billingContactIds: input.billingContactIds ?? [],
        sendOnIssue: input.sendOnIssue ?? false,
        invoiceDelivery: input.invoiceDelivery ?? "attachment",
        remindersEnabled: input.remindersEnabled ?? true,
        reminderDays: [...(input.reminderDays ?? [7, 30])].sort((a, b) => a - b),
        updatedByUsername: actor.username,
      },
      input.baseVersion,
    );
    if (!saved) {
      const current = toProfile(clientId, await findBillingProfile(tx, clientId));
      throw new AppError(
        "conflict",
        "The client's billing profile was changed by someone else since you opened it. Review it and save again.",
        { current },
      );
    }
    const profile = toProfile(clientId, saved);
    await recordAudit(
      tx,
      // biome-ignore lint/plugin/leading-spread-then-keys: the profile's own clientId, left out of the details
      auditedWrite(actor, "billing.profile.set", { type: "client", id: clientId }, { ...profile, clientId: undefined }),
    );
    return profile;
  });
}
