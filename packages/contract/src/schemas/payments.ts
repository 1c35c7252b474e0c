import { z } from "zod";
import { pageOf, pageQuerySchema } from "../envelope.js";
import { currencyCodeSchema, moneySchema } from "./billing.js";
import { authorSchema, calendarDateSchema, idSchema, isoDateTimeSchema, orderedRange } from "./common.js";

/**
 * Payments and receivables (PRODUCT.md §5, BILLING.md "Payments and receivables"): money received from a client,
 * allocated to its invoices; what is left is a credit on the client's account. Nothing is edited: a bounced
 * payment, a refund or a write-off is a new entry. Money on the wire is decimal strings with 2 decimals, in
 * integer cents in the database.
 */

export const paymentMethods = ["check", "ach", "wire", "card", "cash", "other"] as const;
export const paymentMethodSchema = z.enum(paymentMethods);
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

/** An amount a user types: positive, at most 2 decimals ("1250", "1250.5", "1250.50"). */
export const positiveMoneyInputSchema = z
  .string()
  .trim()
  .regex(/^\d{1,12}(\.\d{1,2})?$/, "must be an amount such as 1250.00 (at most 2 decimals)")
  .refine((value) => Number(value) > 0, "must be more than 0.00");

const reasonSchema = z.string().trim().min(1, "a reason is required").max(1000);
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((value) => value || null);

export const allocationInputSchema = z.object({ invoiceId: idSchema, amount: positiveMoneyInputSchema });
export type AllocationInput = z.input<typeof allocationInputSchema>;

/** Each invoice at most once per request: a second line for the same invoice is a typing mistake. */
const allocationListSchema = z
  .array(allocationInputSchema)
  .max(200)
  .refine((lines) => new Set(lines.map((line) => line.invoiceId)).size === lines.length, "an invoice appears twice");

export const recordPaymentSchema = z.object({
  clientId: idSchema,
  receivedOn: calendarDateSchema,
  amount: positiveMoneyInputSchema,
  method: paymentMethodSchema,
  reference: optionalText(200),
  payer: optionalText(300),
  note: optionalText(1000),
  /** Allocated in the same transaction (optional); the rest stays a credit. */
  allocations: allocationListSchema.default([]),
});
export type RecordPayment = z.input<typeof recordPaymentSchema>;

export const allocatePaymentSchema = z.object({ allocations: allocationListSchema.min(1) });
export type AllocatePayment = z.input<typeof allocatePaymentSchema>;

export const reversePaymentSchema = z.object({ reversedOn: calendarDateSchema, reason: reasonSchema });
export type ReversePayment = z.input<typeof reversePaymentSchema>;

export const refundPaymentSchema = z.object({
  refundedOn: calendarDateSchema,
  amount: positiveMoneyInputSchema,
  method: paymentMethodSchema,
  reference: optionalText(200),
  reason: reasonSchema,
});
export type RefundPayment = z.input<typeof refundPaymentSchema>;

/** Apply the client's credit balance (payments' unallocated rest, oldest first) to one invoice. */
export const applyCreditSchema = z.object({ invoiceId: idSchema, amount: positiveMoneyInputSchema.optional() });
export type ApplyCredit = z.input<typeof applyCreditSchema>;

export const writeOffInvoiceSchema = z.object({ writtenOffOn: calendarDateSchema, reason: reasonSchema });
export type WriteOffInvoice = z.input<typeof writeOffInvoiceSchema>;

export const paymentAllocationSchema = z.object({
  id: idSchema,
  invoice: z.object({ id: idSchema, number: z.string() }),
  /** Negative when it takes back an earlier allocation (a reversal). */
  amount: moneySchema,
  allocatedOn: calendarDateSchema,
  reversesAllocationId: idSchema.nullable(),
  reason: z.string().nullable(),
  recordedAt: isoDateTimeSchema,
  recordedBy: authorSchema,
});
export type PaymentAllocation = z.infer<typeof paymentAllocationSchema>;

export const paymentRefundSchema = z.object({
  id: idSchema,
  refundedOn: calendarDateSchema,
  amount: moneySchema,
  method: paymentMethodSchema,
  reference: z.string().nullable(),
  reason: z.string(),
  recordedAt: isoDateTimeSchema,
  recordedBy: authorSchema,
});

export const paymentSummarySchema = z.object({
  id: idSchema,
  client: z.object({ id: idSchema, name: z.string() }),
  receivedOn: calendarDateSchema,
  amount: moneySchema,
  currency: currencyCodeSchema,
  method: paymentMethodSchema,
  reference: z.string().nullable(),
  payer: z.string().nullable(),
  /** Net of reversed allocations. */
  allocated: moneySchema,
  refunded: moneySchema,
  /** What is left to allocate or refund: a credit on the client's account (0.00 once reversed). */
  unallocated: moneySchema,
  reversal: z
    .object({
      reversedOn: calendarDateSchema,
      reason: z.string(),
      recordedAt: isoDateTimeSchema,
      recordedBy: authorSchema,
    })
    .nullable(),
  recordedAt: isoDateTimeSchema,
  recordedBy: authorSchema,
});
export type PaymentSummary = z.infer<typeof paymentSummarySchema>;

export const paymentSchema = paymentSummarySchema.extend({
  note: z.string().nullable(),
  allocations: z.array(paymentAllocationSchema),
  refunds: z.array(paymentRefundSchema),
});
export type Payment = z.infer<typeof paymentSchema>;

/**
 * Why a payment can no longer be reversed, or null when it can: the one rule the server's reversal checks and the
 * payments page follows (a refunded payment's money went back already, so it cannot bounce as well).
 */
export function reversalRefusalOf(payment: Pick<PaymentSummary, "reversal" | "refunded">): string | null {
  if (payment.reversal) return "The payment was reversed already.";
  if (Number(payment.refunded) > 0) return "Part of the payment was refunded: it cannot be reversed as well.";
  return null;
}

export const paymentParamsSchema = z.object({ id: idSchema });
export const paymentListQuerySchema = orderedRange(
  pageQuerySchema.extend({
    clientId: idSchema.optional(),
    from: calendarDateSchema.optional(),
    to: calendarDateSchema.optional(),
  }),
  { from: "from", to: "to" },
);
export type PaymentListQuery = z.input<typeof paymentListQuerySchema>;
export const paymentPageSchema = pageOf(paymentSummarySchema);
export type PaymentPage = z.infer<typeof paymentPageSchema>;

/** An invoice's receivable figures as of a date (what the status is derived from). */
export const invoiceReceivableSchema = z.object({
  invoiceId: idSchema,
  total: moneySchema,
  credited: moneySchema,
  allocated: moneySchema,
  writtenOff: moneySchema,
  /** total − credited − allocated − written off; negative when credits exceed what was left (a client credit). */
  open: moneySchema,
  writeOff: z
    .object({
      writtenOffOn: calendarDateSchema,
      reason: z.string(),
      recordedAt: isoDateTimeSchema,
      recordedBy: authorSchema,
    })
    .nullable(),
});
export type InvoiceReceivable = z.infer<typeof invoiceReceivableSchema>;

/**
 * What was applied to one invoice, in date order: allocations of payments (negative when a reversal takes one
 * back), credit notes correcting it and its write-off, each with the amount due after it.
 */
export const invoiceAllocationEntryKinds = ["allocation", "allocation-reversal", "credit-note", "write-off"] as const;
export const invoiceAllocationEntryKindSchema = z.enum(invoiceAllocationEntryKinds);
export type InvoiceAllocationEntryKind = z.infer<typeof invoiceAllocationEntryKindSchema>;

export const invoiceAllocationEntrySchema = z.object({
  kind: invoiceAllocationEntryKindSchema,
  /** The day it applies from: allocated, credited or written off (the client's calendar day). */
  date: calendarDateSchema,
  /** The payment an allocation (or its reversal) draws on; null for credit notes and write-offs. */
  payment: z
    .object({
      id: idSchema,
      receivedOn: calendarDateSchema,
      payer: z.string().nullable(),
      method: paymentMethodSchema,
      reference: z.string().nullable(),
    })
    .nullable(),
  /** The credit note's number; null otherwise. */
  document: z.string().nullable(),
  /** What it takes off the amount due; negative when it adds back (a reversed allocation). */
  amount: moneySchema,
  reason: z.string().nullable(),
  /** The invoice's amount due after this entry. */
  amountDue: moneySchema,
  recordedAt: isoDateTimeSchema,
});
export type InvoiceAllocationEntry = z.infer<typeof invoiceAllocationEntrySchema>;

export const invoiceAllocationsSchema = z.object({
  invoiceId: idSchema,
  number: z.string(),
  currency: currencyCodeSchema,
  total: moneySchema,
  entries: z.array(invoiceAllocationEntrySchema),
  /** total less every entry: what is due now (negative when credits exceed it). */
  amountDue: moneySchema,
});
export type InvoiceAllocations = z.infer<typeof invoiceAllocationsSchema>;

export const agingBuckets = ["current", "days1to30", "days31to60", "days61to90", "over90"] as const;
const agingFiguresShape = {
  current: moneySchema,
  days1to30: moneySchema,
  days31to60: moneySchema,
  days61to90: moneySchema,
  over90: moneySchema,
  /** Sum of the buckets: every open invoice amount. */
  open: moneySchema,
  /** Unallocated payments and credits beyond an invoice: owed to the client. */
  credit: moneySchema,
  /** open − credit: what the client owes as of the date. */
  balance: moneySchema,
};

export const agingQuerySchema = pageQuerySchema.extend({
  /** Defaults to today (UTC). */
  asOf: calendarDateSchema.optional(),
  clientId: idSchema.optional(),
});
export type AgingQuery = z.input<typeof agingQuerySchema>;

export const agingRowSchema = z.object({
  client: z.object({ id: idSchema, name: z.string() }),
  ...agingFiguresShape,
  oldestOverdue: z
    .object({ invoiceId: idSchema, number: z.string(), dueDate: calendarDateSchema, daysPastDue: z.number().int() })
    .nullable(),
});
export type AgingRow = z.infer<typeof agingRowSchema>;

export const agingReportSchema = pageOf(agingRowSchema).extend({
  asOf: calendarDateSchema,
  currency: currencyCodeSchema,
  totals: z.object(agingFiguresShape),
});
export type AgingReport = z.infer<typeof agingReportSchema>;

export const statementOfAccountEntryKinds = [
  "invoice",
  "supplementary",
  "credit-note",
  "payment",
  "payment-reversal",
  "allocation",
  "refund",
  "write-off",
] as const;
export const statementOfAccountEntryKindSchema = z.enum(statementOfAccountEntryKinds);
export type StatementOfAccountEntryKind = z.infer<typeof statementOfAccountEntryKindSchema>;

export const statementOfAccountQuerySchema = orderedRange(
  z.object({ from: calendarDateSchema, to: calendarDateSchema }),
  { from: "from", to: "to" },
);
export type StatementOfAccountQuery = z.input<typeof statementOfAccountQuerySchema>;
export const statementOfAccountParamsSchema = z.object({ client: idSchema });

export const statementOfAccountEntrySchema = z.object({
  date: calendarDateSchema,
  kind: statementOfAccountEntryKindSchema,
  /** The invoice or credit note number, or the payment's reference. */
  document: z.string(),
  description: z.string(),
  /** What the client owes more (invoices, reversals, refunds); 0.00 otherwise. */
  debit: moneySchema,
  /** What the client owes less (credit notes, payments, write-offs); allocations move neither. */
  credit: moneySchema,
  balance: moneySchema,
});
export type StatementOfAccountEntry = z.infer<typeof statementOfAccountEntrySchema>;

export const statementOfAccountSchema = z.object({
  client: z.object({ id: idSchema, name: z.string(), timezone: z.string() }),
  from: calendarDateSchema,
  to: calendarDateSchema,
  currency: currencyCodeSchema,
  openingBalance: moneySchema,
  entries: z.array(statementOfAccountEntrySchema),
  closingBalance: moneySchema,
});
export type StatementOfAccount = z.infer<typeof statementOfAccountSchema>;

export const statementOfAccountCsvColumns = [
  "date",
  "kind",
  "document",
  "description",
  "debit",
  "credit",
  "balance",
] as const;
