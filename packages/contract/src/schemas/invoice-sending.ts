import { z } from "zod";
import { calendarDateSchema, idSchema, isoDateTimeSchema } from "./common.js";
import { reportLinkInputSchema, reportLinkRefusalSchema } from "./reports.js";

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

/**
 * How a client's invoices leave (its billing profile): the PDF as issued attached to the e-mail, or a one-time link
 * to it in the e-mail instead (the same signed links as reports'), for hospitals whose mail refuses attachments.
 */
export const invoiceDeliveryModes = ["attachment", "link"] as const;
export const invoiceDeliveryModeSchema = z.enum(invoiceDeliveryModes);
export type InvoiceDeliveryMode = z.infer<typeof invoiceDeliveryModeSchema>;

/** `withdrawn`: a reminder whose invoice was settled after the sweep queued it; nothing was e-mailed, by design. */
export const invoiceSendingStatuses = ["pending", "sent", "failed", "withdrawn"] as const;
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
  /** Why the last try failed (the relay's answer), or why a withdrawn reminder was not sent; null once sent. */
  lastError: z.string().nullable(),
  /** The SHA-256 of the PDF attached (or behind the link): the invoice's own. */
  attachmentSha256: z.string().nullable(),
  /** Attached, or a one-time link: the client's setting when the sending was asked for. */
  delivery: invoiceDeliveryModeSchema,
  /** A link's expiry (set when it is first e-mailed); null for an attachment. */
  linkExpiresAt: isoDateTimeSchema.nullable(),
  /** When the link downloaded the PDF (it works once); null until then, and for an attachment. */
  linkOpenedAt: isoDateTimeSchema.nullable(),
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

/**
 * `POST /api/invoice-links/download`: the token from the e-mail's link, in the body as a report link's is (the page
 * reads it from the address's fragment, which browsers do not send).
 */
export const invoiceLinkInputSchema = reportLinkInputSchema;

/** Why an invoice link no longer downloads, in `details` of its 410: `used` (it works once) or `expired`. */
export const invoiceLinkRefusalSchema = reportLinkRefusalSchema;

/** `POST …/invoice-reminders/run`: the sweep as of a day (tests and operators); today when absent. */
export const runInvoiceRemindersSchema = z.object({ asOf: calendarDateSchema.optional() }).strict();
export const invoiceReminderRunSchema = z.object({ queued: z.number().int() });
