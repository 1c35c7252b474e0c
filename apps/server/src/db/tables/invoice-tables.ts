import type { InvoiceDeliveryMode, InvoiceKind } from "@vigil/contract";
import { sql } from "drizzle-orm";
import {
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { billingStatements } from "./billing-tables.js";
import { cases } from "./case-tables.js";
import { clients } from "./client-tables.js";

/** Raw bytes (`bytea`): PostgreSQL's driver gives a Buffer, PGlite a Uint8Array; rows always carry a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => Buffer.from(value),
});

/**
 * How a client is invoiced: the legal name and PO number printed under "Bill to", the payment terms that make the
 * due date, a tax rate (percent; none when null) and whether lines name patients (off unless the client asks: an
 * invoice travels to accounts payable). A client without a row is invoiced with the defaults.
 */
export const clientBillingProfiles = pgTable("client_billing_profiles", {
  clientId: uuid("client_id")
    .primaryKey()
    .references(() => clients.id),
  legalName: text("legal_name"),
  poNumber: text("po_number"),
  paymentTermsDays: integer("payment_terms_days").notNull().default(30),
  taxRatePercent: numeric("tax_rate_percent", { precision: 7, scale: 4 }),
  showPatientNames: boolean("show_patient_names").notNull().default(false),
  /** The client's contacts who receive its invoices, credit notes and reminders by e-mail. */
  billingContactIds: jsonb("billing_contact_ids").notNull().$type<string[]>().default([]),
  /** Send each new invoice (and correction) to them as soon as it is issued. */
  sendOnIssue: boolean("send_on_issue").notNull().default(false),
  /** The PDF attached to the e-mails, or a one-time link to it instead (BILLING.md "Sending invoices and reminders"). */
  invoiceDelivery: text("invoice_delivery").notNull().default("attachment").$type<InvoiceDeliveryMode>(),
  /** Overdue reminders are on unless the client opts out; sent at these days past the due date. */
  remindersEnabled: boolean("reminders_enabled").notNull().default(true),
  reminderDays: jsonb("reminder_days").notNull().$type<number[]>().default([7, 30]),
  version: integer("version").notNull().default(1),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  updatedByUsername: text("updated_by_username").notNull(),
});

/**
 * The last number given in each series and year (one company per installation). Taking a number increments the
 * row in the issuing transaction, which locks it until commit: issues of one series run one after the other, and
 * a rolled-back issue gives its number back. A PostgreSQL sequence would not (nextval is never rolled back).
 */
export const billingDocumentCounters = pgTable(
  "billing_document_counters",
  {
    series: text("series").notNull(),
    year: integer("year").notNull(),
    lastNumber: integer("last_number").notNull(),
  },
  (table) => [primaryKey({ columns: [table.series, table.year] })],
);

/**
 * Issued invoices (and, with `kind`, the credit notes and supplementary invoices that correct one), as sent: the
 * bill-to, dates, totals and the PDF (with its SHA-256) are kept as issued. Append-only: a trigger (migration)
 * refuses UPDATE and DELETE, so no code path can edit what a hospital received.
 */
export const invoices = pgTable(
  "invoices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind").$type<InvoiceKind>().notNull(),
    /** The series ("INV", "CN") and the calendar year (of the issue date) whose counter gave `sequence`. */
    series: text("series").notNull(),
    year: integer("year").notNull(),
    sequence: integer("sequence").notNull(),
    /** As printed: "INV-2026-00001". */
    number: text("number").notNull(),
    clientId: uuid("client_id")
      .notNull()
      .references(() => clients.id),
    /** The statement this invoice bills (invoices issued with a month's statement). */
    statementId: uuid("statement_id").references(() => billingStatements.id),
    /** The invoice a credit note or supplementary invoice corrects. */
    /** (A foreign key to invoices.id, declared in the migration: a self-reference.) */
    correctsInvoiceId: uuid("corrects_invoice_id"),
    reason: text("reason"),
    month: text("month").notNull(),
    issueDate: date("issue_date", { mode: "string" }).notNull(),
    dueDate: date("due_date", { mode: "string" }).notNull(),
    paymentTermsDays: integer("payment_terms_days").notNull(),
    /** The issuing company as printed at the head (REPORT_COMPANY_NAME and _DETAILS when issued). */
    issuerName: text("issuer_name").notNull().default(""),
    issuerDetails: text("issuer_details").notNull().default(""),
    billToName: text("bill_to_name").notNull(),
    billToAddress: jsonb("bill_to_address").notNull().$type<string[]>(),
    poNumber: text("po_number"),
    currency: text("currency").notNull(),
    hourlyRate: numeric("hourly_rate", { precision: 12, scale: 2 }).notNull(),
    subtotal: numeric("subtotal", { precision: 18, scale: 2 }).notNull(),
    taxRatePercent: numeric("tax_rate_percent", { precision: 7, scale: 4 }),
    taxAmount: numeric("tax_amount", { precision: 18, scale: 2 }).notNull(),
    total: numeric("total", { precision: 18, scale: 2 }).notNull(),
    showsPatientNames: boolean("shows_patient_names").notNull(),
    pdf: bytea("pdf").notNull(),
    pdfSha256: text("pdf_sha256").notNull(),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull(),
    issuedBySub: uuid("issued_by_sub"),
    issuedByUsername: text("issued_by_username").notNull(),
    issuedByName: text("issued_by_name"),
  },
  (table) => [
    uniqueIndex("invoices_series_year_sequence_idx").on(table.series, table.year, table.sequence),
    uniqueIndex("invoices_statement_idx").on(table.statementId).where(sql`${table.kind} = 'invoice'`),
    index("invoices_client_issue_idx").on(table.clientId, table.issueDate),
    index("invoices_issue_idx").on(table.issueDate, table.number),
    index("invoices_corrects_idx").on(table.correctsInvoiceId),
  ],
);

/** An invoice's lines as issued (append-only with it): one per case. */
export const invoiceLines = pgTable(
  "invoice_lines",
  {
    invoiceId: uuid("invoice_id")
      .notNull()
      .references(() => invoices.id),
    position: integer("position").notNull(),
    caseId: uuid("case_id")
      .notNull()
      .references(() => cases.id),
    caseNumber: text("case_number").notNull(),
    /** Only when the client's profile asks for patient names; null otherwise. */
    patientName: text("patient_name"),
    serviceFrom: date("service_from", { mode: "string" }).notNull(),
    serviceTo: date("service_to", { mode: "string" }).notNull(),
    hours: numeric("hours", { precision: 12, scale: 2 }).notNull(),
    hourlyRate: numeric("hourly_rate", { precision: 12, scale: 2 }).notNull(),
    amount: numeric("amount", { precision: 18, scale: 2 }).notNull(),
    cptSummary: text("cpt_summary").notNull(),
  },
  (table) => [uniqueIndex("invoice_lines_invoice_position_idx").on(table.invoiceId, table.position)],
);
