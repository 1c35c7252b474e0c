import { and, asc, count, desc, eq, gte, inArray, lte, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import {
  clients,
  invoices,
  invoiceWriteOffs,
  paymentAllocations,
  paymentRefunds,
  paymentReversals,
  payments,
} from "../../db/schema.js";
import { openCentsSql } from "./invoice-status.js";

export type PaymentRow = typeof payments.$inferSelect;
export type PaymentValues = typeof payments.$inferInsert;
export type AllocationRow = typeof paymentAllocations.$inferSelect;
export type AllocationValues = typeof paymentAllocations.$inferInsert;
export type RefundRow = typeof paymentRefunds.$inferSelect;
export type ReversalRow = typeof paymentReversals.$inferSelect;
export type WriteOffRow = typeof invoiceWriteOffs.$inferSelect;

/** A payment with what its allocations (net) and refunds use of it, and its reversal if any. */
export type PaymentWithFigures = {
  payment: PaymentRow;
  clientName: string;
  allocatedCents: number;
  refundedCents: number;
  reversal: ReversalRow | null;
};

/**
 * The outer payment's id, table-qualified: drizzle writes a lone table's column as `"id"` in a select list, which
 * inside these correlated subqueries would name the subquery's own column (the property test caught it).
 */
const outerPaymentId = sql.raw(`"payments"."id"`);
const allocatedOfPayment = sql<number>`(select coalesce(sum(pa.amount_cents), 0)::bigint from payment_allocations pa
  where pa.payment_id = ${outerPaymentId})`.mapWith(Number);
const refundedOfPayment = sql<number>`(select coalesce(sum(pr.amount_cents), 0)::bigint from payment_refunds pr
  where pr.payment_id = ${outerPaymentId})`.mapWith(Number);

function paymentColumns() {
  return {
    payment: payments,
    clientName: clients.name,
    allocatedCents: allocatedOfPayment,
    refundedCents: refundedOfPayment,
    reversal: paymentReversals,
  };
}

/** Payment rows in the order they are locked (by id), so two writers never wait on each other in a circle. */
export async function lockPayments(tx: Db, ids: readonly string[]): Promise<PaymentRow[]> {
  if (ids.length === 0) return [];
  return tx
    .select()
    .from(payments)
    .where(inArray(payments.id, [...ids]))
    .orderBy(asc(payments.id))
    .for("update");
}

/** The client's payments with something left (not reversed), oldest first, locked: its credit balance. */
export async function lockPaymentsWithCredit(tx: Db, clientId: string): Promise<PaymentRow[]> {
  const rows = await tx
    .select({ id: payments.id })
    .from(payments)
    .leftJoin(paymentReversals, eq(paymentReversals.paymentId, payments.id))
    .where(
      and(
        eq(payments.clientId, clientId),
        sql`${paymentReversals.id} is null`,
        sql`${payments.amountCents} - ${allocatedOfPayment} - ${refundedOfPayment} > 0`,
      ),
    );
  return lockPayments(
    tx,
    rows.map((row) => row.id),
  );
}

export async function insertPayment(tx: Db, values: PaymentValues): Promise<PaymentRow> {
  const [row] = await tx.insert(payments).values(values).returning();
  return row as PaymentRow;
}

export async function insertAllocations(tx: Db, values: AllocationValues[]): Promise<AllocationRow[]> {
  return values.length === 0 ? [] : tx.insert(paymentAllocations).values(values).returning();
}

export async function insertReversal(tx: Db, values: typeof paymentReversals.$inferInsert): Promise<ReversalRow> {
  const [row] = await tx.insert(paymentReversals).values(values).returning();
  return row as ReversalRow;
}

export async function insertRefund(tx: Db, values: typeof paymentRefunds.$inferInsert): Promise<RefundRow> {
  const [row] = await tx.insert(paymentRefunds).values(values).returning();
  return row as RefundRow;
}

export async function insertWriteOff(tx: Db, values: typeof invoiceWriteOffs.$inferInsert): Promise<WriteOffRow> {
  const [row] = await tx.insert(invoiceWriteOffs).values(values).returning();
  return row as WriteOffRow;
}

/** One payment with its figures; undefined when there is none. */
export async function findPayment(db: Db, id: string): Promise<PaymentWithFigures | undefined> {
  const [row] = await db
    .select(paymentColumns())
    .from(payments)
    .innerJoin(clients, eq(clients.id, payments.clientId))
    .leftJoin(paymentReversals, eq(paymentReversals.paymentId, payments.id))
    .where(eq(payments.id, id))
    .limit(1);
  return row;
}

/** A payment's allocations (with the invoice number) and refunds, in the order they were recorded. */
export async function findPaymentEntries(
  db: Db,
  paymentId: string,
): Promise<{ allocations: (AllocationRow & { invoiceNumber: string })[]; refunds: RefundRow[] }> {
  const [allocations, refunds] = await Promise.all([
    db
      .select({ allocation: paymentAllocations, invoiceNumber: invoices.number })
      .from(paymentAllocations)
      .innerJoin(invoices, eq(invoices.id, paymentAllocations.invoiceId))
      .where(eq(paymentAllocations.paymentId, paymentId))
      // Entries recorded together (one request) in invoice-number order.
      .orderBy(asc(paymentAllocations.recordedAt), asc(invoices.number), asc(paymentAllocations.amountCents)),
    db
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.paymentId, paymentId))
      .orderBy(asc(paymentRefunds.recordedAt)),
  ]);
  return { allocations: allocations.map((row) => ({ invoiceNumber: row.invoiceNumber, ...row.allocation })), refunds };
}

/** A page of payments, newest first. */
export async function listPaymentRows(
  db: Db,
  filter: { clientId?: string | undefined; from?: string | undefined; to?: string | undefined },
  page: { limit: number; offset: number },
): Promise<{ rows: PaymentWithFigures[]; total: number }> {
  const where = and(
    filter.clientId ? eq(payments.clientId, filter.clientId) : undefined,
    filter.from ? gte(payments.receivedOn, filter.from) : undefined,
    filter.to ? lte(payments.receivedOn, filter.to) : undefined,
  );
  const [rows, counted] = await Promise.all([
    db
      .select(paymentColumns())
      .from(payments)
      .innerJoin(clients, eq(clients.id, payments.clientId))
      .leftJoin(paymentReversals, eq(paymentReversals.paymentId, payments.id))
      .where(where)
      .orderBy(desc(payments.receivedOn), desc(payments.recordedAt))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count() }).from(payments).where(where),
  ]);
  return { rows, total: Number(counted[0]?.total ?? 0) };
}

export type LockedInvoice = {
  id: string;
  number: string;
  clientId: string;
  kind: string;
  issueDate: string;
  openCents: number;
  writtenOff: boolean;
};

/**
 * Invoices locked (FOR UPDATE, by id) with what is open on them now: allocations from two payments to one invoice
 * queue here, so neither can take more than is open. The trigger refuses UPDATE, not a row lock.
 */
export async function lockInvoicesForAllocation(tx: Db, ids: readonly string[]): Promise<LockedInvoice[]> {
  if (ids.length === 0) return [];
  const locked = await tx
    .select({ id: invoices.id })
    .from(invoices)
    .where(inArray(invoices.id, [...ids]))
    .orderBy(asc(invoices.id))
    .for("update");
  if (locked.length === 0) return [];
  return tx
    .select({
      id: invoices.id,
      number: invoices.number,
      clientId: invoices.clientId,
      kind: invoices.kind,
      issueDate: invoices.issueDate,
      // Every entry counts, whatever its date: what is open now bounds a new allocation.
      openCents: openCentsSql("9999-12-31").mapWith(Number),
      writtenOff: sql<boolean>`exists (select 1 from invoice_write_offs w where w.invoice_id = "invoices"."id")`,
    })
    .from(invoices)
    .where(
      inArray(
        invoices.id,
        locked.map((row) => row.id),
      ),
    );
}

/** A payment's allocations not yet taken back (positive and named by no reversal), for reversing them. */
export async function findOpenAllocations(tx: Db, paymentId: string): Promise<AllocationRow[]> {
  return tx
    .select()
    .from(paymentAllocations)
    .where(
      and(
        eq(paymentAllocations.paymentId, paymentId),
        sql`${paymentAllocations.amountCents} > 0`,
        sql`not exists (select 1 from payment_allocations r where r.reverses_allocation_id = ${paymentAllocations.id})`,
      ),
    )
    .orderBy(asc(paymentAllocations.recordedAt), asc(paymentAllocations.id));
}

/** What each locked payment has left: amount − allocations (net) − refunds. */
export async function remainingCentsOf(tx: Db, paymentIds: readonly string[]): Promise<Map<string, number>> {
  if (paymentIds.length === 0) return new Map();
  const rows = await tx
    .select({
      id: payments.id,
      remaining: sql<number>`${payments.amountCents} - ${allocatedOfPayment} - ${refundedOfPayment}`.mapWith(Number),
    })
    .from(payments)
    .where(inArray(payments.id, [...paymentIds]));
  return new Map(rows.map((row) => [row.id, row.remaining]));
}

export async function findReversal(tx: Db, paymentId: string): Promise<ReversalRow | undefined> {
  const [row] = await tx.select().from(paymentReversals).where(eq(paymentReversals.paymentId, paymentId)).limit(1);
  return row;
}

/** What was applied to one invoice: its allocations (with their payment), credit notes correcting it, a write-off. */
export async function findInvoiceApplications(db: Db, invoiceId: string) {
  const [allocations, creditNotes, writeOffs] = await Promise.all([
    db
      .select({ allocation: paymentAllocations, payment: payments })
      .from(paymentAllocations)
      .innerJoin(payments, eq(payments.id, paymentAllocations.paymentId))
      .where(eq(paymentAllocations.invoiceId, invoiceId)),
    db
      .select({
        number: invoices.number,
        issueDate: invoices.issueDate,
        totalCents: sql<number>`(round(${invoices.total} * 100))::bigint`.mapWith(Number),
        reason: invoices.reason,
        issuedAt: invoices.issuedAt,
      })
      .from(invoices)
      .where(and(eq(invoices.correctsInvoiceId, invoiceId), eq(invoices.kind, "credit-note"))),
    db.select().from(invoiceWriteOffs).where(eq(invoiceWriteOffs.invoiceId, invoiceId)),
  ]);
  return { allocations, creditNotes, writeOffs };
}

/** The invoice an applications list is about; undefined when there is none. */
export async function findInvoiceHeading(db: Db, invoiceId: string) {
  const [row] = await db
    .select({
      id: invoices.id,
      number: invoices.number,
      kind: invoices.kind,
      currency: invoices.currency,
      totalCents: sql<number>`(round(${invoices.total} * 100))::bigint`.mapWith(Number),
    })
    .from(invoices)
    .where(eq(invoices.id, invoiceId))
    .limit(1);
  return row;
}
