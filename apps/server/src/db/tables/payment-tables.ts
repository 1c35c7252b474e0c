import type { PaymentMethod } from "@vigil/contract";
import { sql } from "drizzle-orm";
import { bigint, check, date, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { clients } from "./client-tables.js";
import { invoices } from "./invoice-tables.js";

/**
 * The receivables ledger (BILLING.md "Payments and receivables"). Every table here is append-only (a trigger in the
 * migration refuses UPDATE and DELETE): a bounced payment, a taken-back allocation or a refund is a new row that
 * reverses or draws on an earlier one, never an edit, so a client's balance is a sum over an immutable list
 * (Stripe's customer balance, Invoice Ninja's allocations). Money in integer cents; dates are calendar dates of the
 * client's time zone; every row names who recorded it.
 */
const recordedBy = {
  recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull().defaultNow(),
  recordedBySub: uuid("recorded_by_sub"),
  recordedByUsername: text("recorded_by_username").notNull(),
  recordedByName: text("recorded_by_name"),
};

/** Money received from a client. What no allocation uses (nor a refund) is a credit on the client's account. */
export const payments = pgTable(
  "payments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    clientId: uuid("client_id")
      .notNull()
      .references(() => clients.id),
    receivedOn: date("received_on", { mode: "string" }).notNull(),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    currency: text("currency").notNull(),
    method: text("method").$type<PaymentMethod>().notNull(),
    reference: text("reference"),
    payer: text("payer"),
    note: text("note"),
    ...recordedBy,
  },
  (table) => [
    index("payments_client_received_idx").on(table.clientId, table.receivedOn),
    check("payments_amount_positive", sql`${table.amountCents} > 0`),
  ],
);

/** A bounced or reversed payment: at most one per payment; its allocations are reversed in the same transaction. */
export const paymentReversals = pgTable(
  "payment_reversals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    paymentId: uuid("payment_id")
      .notNull()
      .references(() => payments.id),
    reversedOn: date("reversed_on", { mode: "string" }).notNull(),
    reason: text("reason").notNull(),
    ...recordedBy,
  },
  (table) => [uniqueIndex("payment_reversals_payment_idx").on(table.paymentId)],
);

/**
 * Part of a payment applied to an invoice (positive), or the taking back of an earlier allocation (negative, naming
 * it in `reversesAllocationId`, at most once). The net per payment never exceeds the payment (less its refunds),
 * the net per invoice never exceeds what is open on it: checked under the payment row's lock.
 */
export const paymentAllocations = pgTable(
  "payment_allocations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    paymentId: uuid("payment_id")
      .notNull()
      .references(() => payments.id),
    invoiceId: uuid("invoice_id")
      .notNull()
      .references(() => invoices.id),
    clientId: uuid("client_id")
      .notNull()
      .references(() => clients.id),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    allocatedOn: date("allocated_on", { mode: "string" }).notNull(),
    /** A self-reference (declared in the migration). */
    reversesAllocationId: uuid("reverses_allocation_id"),
    reason: text("reason"),
    ...recordedBy,
  },
  (table) => [
    index("payment_allocations_payment_idx").on(table.paymentId),
    index("payment_allocations_invoice_idx").on(table.invoiceId, table.allocatedOn),
    index("payment_allocations_client_idx").on(table.clientId, table.allocatedOn),
    uniqueIndex("payment_allocations_reverses_idx").on(table.reversesAllocationId),
    check("payment_allocations_amount_nonzero", sql`${table.amountCents} <> 0`),
  ],
);

/** Money paid back to a client out of a payment's unallocated rest (a refund of a credit balance). */
export const paymentRefunds = pgTable(
  "payment_refunds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    paymentId: uuid("payment_id")
      .notNull()
      .references(() => payments.id),
    clientId: uuid("client_id")
      .notNull()
      .references(() => clients.id),
    refundedOn: date("refunded_on", { mode: "string" }).notNull(),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    method: text("method").$type<PaymentMethod>().notNull(),
    reference: text("reference"),
    reason: text("reason").notNull(),
    ...recordedBy,
  },
  (table) => [
    index("payment_refunds_payment_idx").on(table.paymentId),
    index("payment_refunds_client_idx").on(table.clientId, table.refundedOn),
    check("payment_refunds_amount_positive", sql`${table.amountCents} > 0`),
  ],
);

/** What was still open on an invoice when it was written off as uncollectable, with the reason (one per invoice). */
export const invoiceWriteOffs = pgTable(
  "invoice_write_offs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    invoiceId: uuid("invoice_id")
      .notNull()
      .references(() => invoices.id),
    clientId: uuid("client_id")
      .notNull()
      .references(() => clients.id),
    writtenOffOn: date("written_off_on", { mode: "string" }).notNull(),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    reason: text("reason").notNull(),
    ...recordedBy,
  },
  (table) => [
    uniqueIndex("invoice_write_offs_invoice_idx").on(table.invoiceId),
    index("invoice_write_offs_client_idx").on(table.clientId, table.writtenOffOn),
    check("invoice_write_offs_amount_positive", sql`${table.amountCents} > 0`),
  ],
);
