import { z } from "zod";
import { pageOf, pageQuerySchema } from "../envelope.js";
import { currencyCodeSchema, hoursDifferenceSchema, moneySchema } from "./billing.js";
import { authorSchema, calendarDateSchema, idSchema, isoDateTimeSchema, monthSchema, orderedRange } from "./common.js";
import { invoiceDeliveryModeSchema } from "./invoice-sending.js";

/**
 * Invoices (PRODUCT.md §5, BILLING.md "Invoices"): the document a hospital's accounts payable receives when a
 * month's statement is issued. Numbered from a gapless series per year ("INV-2026-00001"), kept exactly as issued
 * (the database refuses edits) with the PDF's SHA-256. Money is decimal strings with 2 decimals, as in billing.
 */

/** An invoice, a supplementary invoice (more to bill for a month already invoiced) or a credit note. */
export const invoiceKinds = ["invoice", "supplementary", "credit-note"] as const;
export const invoiceKindSchema = z.enum(invoiceKinds);
export type InvoiceKind = z.infer<typeof invoiceKindSchema>;

/**
 * Derived, never typed (BILLING.md "Invoice status"), from the allocations, credit notes and write-off as of a
 * date: `written-off`, else `paid` once nothing is open, else `overdue` after the due date, else `partly-paid`
 * with an allocation, else `issued`. A credit note is always `issued` (it is owed to the client).
 */
export const invoiceStatuses = ["issued", "partly-paid", "paid", "overdue", "written-off"] as const;
export const invoiceStatusSchema = z.enum(invoiceStatuses);
export type InvoiceStatus = z.infer<typeof invoiceStatusSchema>;

/** A percentage such as 8.875 (at most 4 decimals, under 100). */
export const taxRateInputSchema = z
  .string()
  .trim()
  .regex(/^\d{1,2}(\.\d{1,4})?$/, "must be a percentage such as 8 or 8.875 (at most 4 decimals)");

/** How a client is invoiced; the defaults until someone sets them. */
export const clientBillingProfileSchema = z.object({
  clientId: idSchema,
  /** Printed under "Bill to"; the client's name when null. */
  legalName: z.string().nullable(),
  /** The hospital's purchase order number, printed on its invoices when given. */
  poNumber: z.string().nullable(),
  /** Net days: the due date is the issue date plus these. */
  paymentTermsDays: z.number().int().min(0).max(365),
  /** Percent added as tax to the subtotal; null for none. */
  taxRatePercent: z.string().nullable(),
  /** Lines name the patient only when the client asks: an invoice travels to accounts payable. */
  showPatientNames: z.boolean(),
  /** The client's contacts who receive invoices, credit notes and reminders by e-mail (with an address). */
  billingContactIds: z.array(idSchema),
  /** Send each new invoice and correction to them when it is issued. */
  sendOnIssue: z.boolean(),
  /** The PDF attached to the e-mails, or a one-time link to it instead. */
  invoiceDelivery: invoiceDeliveryModeSchema,
  /** Reminders of overdue invoices; on unless the client opts out. */
  remindersEnabled: z.boolean(),
  /** Days past the due date a reminder goes out at (7 and 30 by default). */
  reminderDays: z.array(z.number().int().min(1).max(365)),
  /** null while the client has the defaults (nothing stored yet). */
  version: z.number().int().min(1).nullable(),
});
export type ClientBillingProfile = z.infer<typeof clientBillingProfileSchema>;

export const setClientBillingProfileSchema = z.object({
  legalName: z.string().trim().max(300).nullable(),
  poNumber: z.string().trim().max(100).nullable(),
  paymentTermsDays: z.number().int().min(0).max(365),
  taxRatePercent: taxRateInputSchema.nullable(),
  showPatientNames: z.boolean(),
  billingContactIds: z.array(idSchema).max(20).default([]),
  sendOnIssue: z.boolean().default(false),
  invoiceDelivery: invoiceDeliveryModeSchema.default("attachment"),
  remindersEnabled: z.boolean().default(true),
  reminderDays: z
    .array(z.number().int().min(1, "must be 1 day or more").max(365, "must be 365 days or fewer"))
    .max(5, "at most 5 reminders")
    .refine((days) => new Set(days).size === days.length, "each day only once")
    .default([7, 30]),
  /** The version the user saw (null for the defaults); a stale one is refused (409). */
  baseVersion: z.number().int().min(1).nullable(),
});
export type SetClientBillingProfile = z.input<typeof setClientBillingProfileSchema>;

export const clientBillingProfileParamsSchema = z.object({ client: idSchema });

export const invoiceLineSchema = z.object({
  caseId: idSchema,
  caseNumber: z.string(),
  /** null unless the client's profile asks for patient names. */
  patientName: z.string().nullable(),
  /** The first and last day of billed time in the month, in the client's time zone. */
  serviceFrom: calendarDateSchema,
  serviceTo: calendarDateSchema,
  hours: hoursDifferenceSchema,
  hourlyRate: moneySchema,
  amount: moneySchema,
  /** The CPT suggestion in a few words ("95700 ×1, 95720 ×2"). */
  cptSummary: z.string(),
});
export type InvoiceLine = z.infer<typeof invoiceLineSchema>;

export const invoiceSummarySchema = z.object({
  id: idSchema,
  kind: invoiceKindSchema,
  number: z.string(),
  client: z.object({ id: idSchema, name: z.string() }),
  month: monthSchema,
  issueDate: calendarDateSchema,
  dueDate: calendarDateSchema,
  currency: currencyCodeSchema,
  subtotal: moneySchema,
  tax: moneySchema,
  total: moneySchema,
  status: invoiceStatusSchema,
  /** What is still owed on it as of today (total − credit notes − allocations − write-off); 0.00 for a credit note. */
  open: moneySchema,
  /** The invoice a credit note or supplementary invoice corrects. */
  corrects: z.object({ id: idSchema, number: z.string() }).nullable(),
});
export type InvoiceSummary = z.infer<typeof invoiceSummarySchema>;

export const invoiceSchema = invoiceSummarySchema.extend({
  statementId: idSchema.nullable(),
  reason: z.string().nullable(),
  paymentTermsDays: z.number().int().min(0),
  billTo: z.object({ name: z.string(), address: z.array(z.string()), poNumber: z.string().nullable() }),
  hourlyRate: moneySchema,
  taxRatePercent: z.string().nullable(),
  lines: z.array(invoiceLineSchema),
  /** The SHA-256 (hex) of the PDF as issued; the PDF route answers exactly those bytes. */
  pdfSha256: z.string(),
  issuedAt: isoDateTimeSchema,
  issuedBy: authorSchema,
  /** Who issues the invoice, as printed at its head. */
  issuer: z.object({ name: z.string(), details: z.string() }),
});
export type Invoice = z.infer<typeof invoiceSchema>;

const invoiceFilterShape = {
  clientId: idSchema.optional(),
  status: invoiceStatusSchema.optional(),
  kind: invoiceKindSchema.optional(),
  /** Issue dates from (inclusive). */
  from: calendarDateSchema.optional(),
  /** Issue dates to (inclusive). */
  to: calendarDateSchema.optional(),
};

export const invoiceListQuerySchema = orderedRange(pageQuerySchema.extend(invoiceFilterShape), {
  from: "from",
  to: "to",
});
export type InvoiceListQuery = z.input<typeof invoiceListQuerySchema>;
export const invoiceExportQuerySchema = orderedRange(z.object(invoiceFilterShape), { from: "from", to: "to" });
export type InvoiceExportQuery = z.input<typeof invoiceExportQuerySchema>;

export const invoicePageSchema = pageOf(invoiceSummarySchema).extend({
  /** Over every invoice the filters match, per currency. */
  totals: z.array(z.object({ currency: currencyCodeSchema, total: moneySchema })),
});
export type InvoicePage = z.infer<typeof invoicePageSchema>;

export const invoicePdfSchema = z.string().meta({ format: "binary", description: "The invoice's PDF as issued" });
export const invoiceCsvSchema = z.string().meta({ description: "CSV with a header row" });
export const invoiceCsvColumns = [
  "number",
  "kind",
  "client",
  "month",
  "issue_date",
  "due_date",
  "currency",
  "subtotal",
  "tax",
  "total",
  "status",
  "corrects",
] as const;
