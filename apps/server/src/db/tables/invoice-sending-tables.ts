import type {
  InvoiceDeliveryMode,
  InvoiceSendingPurpose,
  InvoiceSendingStatus,
  InvoiceSendingTrigger,
} from "@vigil/contract";
import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { invoices } from "./invoice-tables.js";

export type SendingRecipient = { contactId: string; name: string; email: string };

/**
 * Every e-mail of an invoice (or credit note) to the client's billing contacts: the invoice itself, sent by hand,
 * again, or on issue, and the overdue reminders. Written with its job in one transaction; the job sends it once
 * and records the outcome here. A reminder's (invoice, days) is unique: the row is the claim that keeps two
 * instances (or two sweeps) from reminding twice.
 */
export const invoiceSendings = pgTable(
  "invoice_sendings",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    invoiceId: uuid("invoice_id")
      .notNull()
      .references(() => invoices.id),
    purpose: text("purpose").notNull().$type<InvoiceSendingPurpose>(),
    trigger: text("trigger").notNull().$type<InvoiceSendingTrigger>(),
    /** A reminder's threshold: days past the due date. */
    reminderDays: integer("reminder_days"),
    recipients: jsonb("recipients").notNull().$type<SendingRecipient[]>(),
    status: text("status").notNull().default("pending").$type<InvoiceSendingStatus>(),
    lastError: text("last_error"),
    /** The SHA-256 of the PDF attached or behind the link (the invoice's, byte for byte). */
    attachmentSha256: text("attachment_sha256"),
    /** Attached, or a one-time link: the client's setting when the sending was asked for. */
    delivery: text("delivery").notNull().default("attachment").$type<InvoiceDeliveryMode>(),
    /**
     * A link's expiry, set once when it is first e-mailed (a retried e-mail carries the same link). The link is the
     * sending's id signed with this expiry (links/signed-links.ts), never stored; `link_opened_at` spends it.
     */
    linkExpiresAt: timestamp("link_expires_at", { withTimezone: true }),
    linkOpenedAt: timestamp("link_opened_at", { withTimezone: true }),
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull().defaultNow(),
    requestedByUsername: text("requested_by_username").notNull(),
    requestedByName: text("requested_by_name"),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (table) => [
    index("invoice_sendings_invoice_idx").on(table.invoiceId, table.requestedAt),
    uniqueIndex("invoice_sendings_reminder_idx")
      .on(table.invoiceId, table.reminderDays)
      .where(sql`${table.purpose} = 'reminder'`),
  ],
);
