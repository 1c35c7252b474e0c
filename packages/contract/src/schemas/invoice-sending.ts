import { z } from "zod";
import { calendarDateSchema, idSchema, isoDateTimeSchema } from "./common.js";

/**
 * Sending invoices (BILLING.md "Sending invoices and reminders"): e-mails of an invoice or credit note to the
 * client's billing contacts with the PDF as issued attached, each one logged on the invoice.
 */
export const invoiceSendingPurposes = ["invoice", "reminder"] as const;
export const invoiceSendingPurposeSchema = z.enum(invoiceSendingPurposes);
export type InvoiceSendingPurpose = z.infer<typeof invoiceSendingPurposeSchema>;

/** Who asked: a user (first send or again), the issue itself (the profile's "send on issue"), the reminder job. */
export const invoiceSendingTriggers = ["manual", "on-issue", "reminder"] as const;
export const invoiceSendingTriggerSchema = z.enum(invoiceSendingTriggers);
export type InvoiceSendingTrigger = z.infer<typeof invoiceSendingTriggerSchema>;

export const invoiceSendingStatuses = ["pending", "sent", "failed"] as const;
export const invoiceSendingStatusSchema = z.enum(invoiceSendingStatuses);
export type InvoiceSendingStatus = z.infer<typeof invoiceSendingStatusSchema>;

export const invoiceSendingSchema = z.object({
  id: idSchema,
  invoiceId: idSchema,
  purpose: invoiceSendingPurposeSchema,
  trigger: invoiceSendingTriggerSchema,
  /** A reminder's threshold (days past the due date); null for the invoice itself. */
  reminderDays: z.number().int().nullable(),
  recipients: z.array(z.object({ contactId: idSchema, name: z.string(), email: z.string() })),
  status: invoiceSendingStatusSchema,
  /** Why the last try failed (the relay's answer); null once sent. */
  lastError: z.string().nullable(),
  /** The SHA-256 of the PDF attached: the invoice's own. */
  attachmentSha256: z.string().nullable(),
  requestedAt: isoDateTimeSchema,
  requestedBy: z.object({ username: z.string(), name: z.string().nullable() }),
  finishedAt: isoDateTimeSchema.nullable(),
});
export type InvoiceSending = z.infer<typeof invoiceSendingSchema>;

export const invoiceSendingListSchema = z.object({ items: z.array(invoiceSendingSchema) });
export type InvoiceSendingList = z.infer<typeof invoiceSendingListSchema>;

/** `POST …/invoices/{id}/sendings`: nothing to choose, the client's billing contacts receive it. */
export const sendInvoiceInputSchema = z.object({}).strict();
export type SendInvoiceInput = z.input<typeof sendInvoiceInputSchema>;

/** `POST …/invoice-reminders/run`: the sweep as of a day (tests and operators); today when absent. */
export const runInvoiceRemindersSchema = z.object({ asOf: calendarDateSchema.optional() }).strict();
export const invoiceReminderRunSchema = z.object({ queued: z.number().int() });
