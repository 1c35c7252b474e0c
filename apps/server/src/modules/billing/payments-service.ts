import type {
  AllocatePayment,
  ApplyCredit,
  allocatePaymentSchema,
  applyCreditSchema,
  Payment,
  PaymentPage,
  PaymentSummary,
  paymentListQuerySchema,
  RecordPayment,
  RefundPayment,
  ReversePayment,
  recordPaymentSchema,
  refundPaymentSchema,
  reversePaymentSchema,
  WriteOffInvoice,
  writeOffInvoiceSchema,
} from "@vigil/contract";
import { reversalRefusalOf } from "@vigil/contract";
import { auditedWrite } from "../../audit/audited-write.js";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import { centsOfMoney, moneyOfCents } from "./billing-money.js";
import { type BillingActor, requireBillingClient } from "./billing-service.js";
import { todayIn } from "./invoices-service.js";
import {
  findOpenAllocations,
  findPayment,
  findPaymentEntries,
  insertAllocations,
  insertPayment,
  insertRefund,
  insertReversal,
  insertWriteOff,
  listPaymentRows,
  lockInvoicesForAllocation,
  lockPayments,
  lockPaymentsWithCredit,
  type PaymentRow,
  type PaymentWithFigures,
  remainingCentsOf,
} from "./payments-repository.js";

/**
 * Payments and receivables (BILLING.md "Payments and receivables"). Every write is one transaction that locks the
 * payment rows it draws on (SELECT … FOR UPDATE, by id) and then the invoices it allocates to, checks what is left
 * on both under those locks, appends ledger rows (never an update: the tables refuse one) and audits who and why.
 * Two users allocating one payment at once therefore queue on its row, and the second sees what the first took.
 */

type Parsed<T extends { parse: (value: unknown) => unknown }> = ReturnType<T["parse"]>;

function recordedBy(actor: BillingActor) {
  return { recordedBySub: actor.sub, recordedByUsername: actor.username, recordedByName: actor.name };
}

function conflict(message: string, details?: Record<string, unknown>): AppError {
  return new AppError("conflict", message, details);
}

function remainingOf(figures: PaymentWithFigures): number {
  return figures.reversal ? 0 : figures.payment.amountCents - figures.allocatedCents - figures.refundedCents;
}

function toSummary(found: PaymentWithFigures): PaymentSummary {
  const { payment, reversal } = found;
  return {
    id: payment.id,
    client: { id: payment.clientId, name: found.clientName },
    receivedOn: payment.receivedOn,
    amount: moneyOfCents(payment.amountCents),
    currency: payment.currency,
    method: payment.method,
    reference: payment.reference,
    payer: payment.payer,
    allocated: moneyOfCents(found.allocatedCents),
    refunded: moneyOfCents(found.refundedCents),
    unallocated: moneyOfCents(remainingOf(found)),
    reversal: reversal
      ? {
          reversedOn: reversal.reversedOn,
          reason: reversal.reason,
          recordedAt: reversal.recordedAt.toISOString(),
          recordedBy: {
            sub: reversal.recordedBySub,
            username: reversal.recordedByUsername,
            name: reversal.recordedByName,
          },
        }
      : null,
    recordedAt: payment.recordedAt.toISOString(),
    recordedBy: { sub: payment.recordedBySub, username: payment.recordedByUsername, name: payment.recordedByName },
  };
}

async function requirePayment(db: Db, id: string): Promise<PaymentWithFigures> {
  const found = await findPayment(db, id);
  if (!found) throw new AppError("not_found", `No payment with id ${id}.`);
  return found;
}

/**
 * The start of every write that draws on one payment: its row locked, then its figures read under that lock (so a
 * second writer sees what the first took); a reversed payment refused with `whenReversed`.
 */
async function lockPayment(tx: Db, paymentId: string, whenReversed: string): Promise<PaymentWithFigures> {
  const [payment] = await lockPayments(tx, [paymentId]);
  if (!payment) throw new AppError("not_found", `No payment with id ${paymentId}.`);
  const found = await requirePayment(tx, paymentId);
  if (found.reversal) throw conflict(whenReversed);
  return found;
}

/** `GET /billing/payments/{id}`: the payment, what is left of it, its allocations and refunds. */
export async function getPayment(db: Db, id: string): Promise<Payment> {
  const found = await requirePayment(db, id);
  const { allocations, refunds } = await findPaymentEntries(db, id);
  return {
    note: found.payment.note,
    allocations: allocations.map((row) => ({
      id: row.id,
      invoice: { id: row.invoiceId, number: row.invoiceNumber },
      amount: moneyOfCents(row.amountCents),
      allocatedOn: row.allocatedOn,
      reversesAllocationId: row.reversesAllocationId,
      reason: row.reason,
      recordedAt: row.recordedAt.toISOString(),
      recordedBy: { sub: row.recordedBySub, username: row.recordedByUsername, name: row.recordedByName },
    })),
    refunds: refunds.map((row) => ({
      id: row.id,
      refundedOn: row.refundedOn,
      amount: moneyOfCents(row.amountCents),
      method: row.method,
      reference: row.reference,
      reason: row.reason,
      recordedAt: row.recordedAt.toISOString(),
      recordedBy: { sub: row.recordedBySub, username: row.recordedByUsername, name: row.recordedByName },
    })),
    ...toSummary(found),
  };
}

/** `GET /billing/payments`: newest first, server-paged, by client and dates received. */
export async function listPayments(db: Db, query: Parsed<typeof paymentListQuerySchema>): Promise<PaymentPage> {
  const { rows, total } = await listPaymentRows(db, query, { limit: query.limit, offset: query.offset });
  return { items: rows.map(toSummary), total, limit: query.limit, offset: query.offset };
}

/**
 * Allocates from one locked payment: the lines may not add up to more than is left of it, and none may exceed what
 * is open on its invoice (an invoice of the same client, not a credit note, not written off).
 */
async function allocateFrom(
  tx: Db,
  payment: PaymentRow,
  remainingCents: number,
  lines: readonly { invoiceId: string; amountCents: number }[],
  actor: BillingActor,
  allocatedOn: string,
): Promise<void> {
  const wanted = lines.reduce((sum, line) => sum + line.amountCents, 0);
  if (wanted > remainingCents) {
    throw conflict(
      `The allocations add up to ${moneyOfCents(wanted)}, but only ${moneyOfCents(remainingCents)} of the payment is left.`,
      { remaining: moneyOfCents(remainingCents) },
    );
  }
  const locked = new Map(
    (
      await lockInvoicesForAllocation(
        tx,
        lines.map((line) => line.invoiceId),
      )
    ).map((row) => [row.id, row]),
  );
  for (const line of lines) {
    const invoice = locked.get(line.invoiceId);
    if (!invoice || invoice.clientId !== payment.clientId) {
      throw new AppError("not_found", `No invoice ${line.invoiceId} of this payment's client.`);
    }
    if (invoice.kind === "credit-note") throw conflict(`${invoice.number} is a credit note: nothing is owed on it.`);
    if (invoice.writtenOff) throw conflict(`${invoice.number} was written off: nothing more can be allocated to it.`);
    if (line.amountCents > invoice.openCents) {
      throw conflict(
        `${invoice.number} has ${moneyOfCents(Math.max(invoice.openCents, 0))} open; ${moneyOfCents(line.amountCents)} cannot be allocated to it.`,
        { invoiceId: invoice.id, open: moneyOfCents(Math.max(invoice.openCents, 0)) },
      );
    }
  }
  await insertAllocations(
    tx,
    lines.map((line) => ({
      paymentId: payment.id,
      invoiceId: line.invoiceId,
      clientId: payment.clientId,
      amountCents: line.amountCents,
      // Money cannot be applied to an invoice before it was issued.
      allocatedOn: laterOf(allocatedOn, locked.get(line.invoiceId)?.issueDate ?? allocatedOn),
      ...recordedBy(actor),
    })),
  );
}

function laterOf(left: string, right: string): string {
  return left > right ? left : right;
}

function linesOf(input: { allocations: readonly { invoiceId: string; amount: string }[] }) {
  return input.allocations.map((line) => ({ invoiceId: line.invoiceId, amountCents: centsOfMoney(line.amount) }));
}

function auditTarget(payment: PaymentRow) {
  return { type: "payment", id: payment.id };
}

/** `POST /billing/payments`: records money received (and allocates it when asked); the rest is a credit. */
export async function recordPayment(
  db: Db,
  input: Parsed<typeof recordPaymentSchema>,
  actor: BillingActor,
  settings: { currency: string },
  now = new Date(),
): Promise<Payment> {
  const id = await db.transaction(async (tx) => {
    const client = await requireBillingClient(tx, input.clientId);
    const today = todayIn(client.timezone, now);
    if (input.receivedOn > today) throw conflict(`A payment cannot be received after today (${today}).`);
    const payment = await insertPayment(tx, {
      clientId: client.id,
      receivedOn: input.receivedOn,
      amountCents: centsOfMoney(input.amount),
      currency: settings.currency,
      method: input.method,
      reference: input.reference,
      payer: input.payer,
      note: input.note,
      ...recordedBy(actor),
    });
    // A new payment is not yet visible to anyone else, but its row is locked like any other it allocates from.
    await lockPayments(tx, [payment.id]);
    // Allocated with the payment: applied the day it was received.
    await allocateFrom(tx, payment, payment.amountCents, linesOf(input), actor, input.receivedOn);
    await recordAudit(
      tx,
      auditedWrite(actor, "billing.payment.recorded", auditTarget(payment), {
        clientId: client.id,
        amount: input.amount,
        receivedOn: input.receivedOn,
        method: input.method,
        reference: input.reference,
        allocations: input.allocations,
      }),
    );
    return payment.id;
  });
  return getPayment(db, id);
}

/** `POST /billing/payments/{id}/allocations`: applies more of a payment to invoices, under the payment's lock. */
export async function allocatePayment(
  db: Db,
  paymentId: string,
  input: Parsed<typeof allocatePaymentSchema>,
  actor: BillingActor,
  now = new Date(),
): Promise<Payment> {
  await db.transaction(async (tx) => {
    const found = await lockPayment(tx, paymentId, "The payment was reversed: nothing of it can be allocated.");
    const { payment } = found;
    const client = await requireBillingClient(tx, payment.clientId);
    await allocateFrom(tx, payment, remainingOf(found), linesOf(input), actor, todayIn(client.timezone, now));
    await recordAudit(
      tx,
      auditedWrite(actor, "billing.payment.allocated", auditTarget(payment), { allocations: input.allocations }),
    );
  });
  return getPayment(db, paymentId);
}

/**
 * `POST /billing/payments/{id}/reversal`: a bounced or returned payment. A new entry names it, and each of its
 * allocations not yet taken back gets a negative twin, so its invoices are open again; nothing is edited. A
 * payment already partly refunded cannot bounce (the money went back already).
 */
export async function reversePayment(
  db: Db,
  paymentId: string,
  input: Parsed<typeof reversePaymentSchema>,
  actor: BillingActor,
): Promise<Payment> {
  await db.transaction(async (tx) => {
    const found = await lockPayment(tx, paymentId, "The payment was reversed already.");
    const { payment } = found;
    // The rule the payments page shows (`reversalRefusalOf`): a refunded payment cannot bounce as well.
    const refusal = reversalRefusalOf(toSummary(found));
    if (refusal) throw conflict(refusal);
    if (input.reversedOn < payment.receivedOn) throw conflict("A payment cannot be reversed before it was received.");
    const open = await findOpenAllocations(tx, paymentId);
    const invoiceIds = [...new Set(open.map((row) => row.invoiceId))];
    await lockInvoicesForAllocation(tx, invoiceIds);
    await insertReversal(tx, { paymentId, reversedOn: input.reversedOn, reason: input.reason, ...recordedBy(actor) });
    await insertAllocations(
      tx,
      open.map((row) => ({
        paymentId,
        invoiceId: row.invoiceId,
        clientId: row.clientId,
        amountCents: -row.amountCents,
        allocatedOn: input.reversedOn > row.allocatedOn ? input.reversedOn : row.allocatedOn,
        reversesAllocationId: row.id,
        reason: input.reason,
        ...recordedBy(actor),
      })),
    );
    await recordAudit(
      tx,
      auditedWrite(actor, "billing.payment.reversed", auditTarget(payment), {
        reason: input.reason,
        reversedOn: input.reversedOn,
        allocationsReversed: open.length,
      }),
    );
  });
  return getPayment(db, paymentId);
}

/** `POST /billing/payments/{id}/refunds`: pays back part of what is left of a payment (a credit balance). */
export async function refundPayment(
  db: Db,
  paymentId: string,
  input: Parsed<typeof refundPaymentSchema>,
  actor: BillingActor,
): Promise<Payment> {
  await db.transaction(async (tx) => {
    const found = await lockPayment(tx, paymentId, "The payment was reversed: nothing of it can be refunded.");
    const { payment } = found;
    const amountCents = centsOfMoney(input.amount);
    const remaining = remainingOf(found);
    if (amountCents > remaining) {
      throw conflict(`Only ${moneyOfCents(remaining)} of the payment is unallocated; refund at most that.`, {
        remaining: moneyOfCents(remaining),
      });
    }
    await insertRefund(tx, {
      paymentId,
      clientId: payment.clientId,
      refundedOn: input.refundedOn,
      amountCents,
      method: input.method,
      reference: input.reference,
      reason: input.reason,
      ...recordedBy(actor),
    });
    await recordAudit(
      tx,
      auditedWrite(actor, "billing.payment.refunded", auditTarget(payment), {
        amount: input.amount,
        refundedOn: input.refundedOn,
        reason: input.reason,
      }),
    );
  });
  return getPayment(db, paymentId);
}

/**
 * `POST /billing/clients/{client}/credit/apply`: applies the client's credit balance (what is left of its payments,
 * oldest first) to one invoice, up to the amount asked or what is open. Answers the payments drawn on.
 */
export async function applyCredit(
  db: Db,
  clientId: string,
  input: Parsed<typeof applyCreditSchema>,
  actor: BillingActor,
  now = new Date(),
): Promise<{ allocated: string; payments: string[] }> {
  return db.transaction(async (tx) => {
    const client = await requireBillingClient(tx, clientId);
    const locked = await lockPaymentsWithCredit(tx, clientId);
    const remaining = await remainingCentsOf(
      tx,
      locked.map((row) => row.id),
    );
    const [invoice] = await lockInvoicesForAllocation(tx, [input.invoiceId]);
    if (!invoice || invoice.clientId !== clientId) {
      throw new AppError("not_found", `No invoice ${input.invoiceId} of this client.`);
    }
    const credit = [...remaining.values()].reduce((sum, value) => sum + Math.max(value, 0), 0);
    const wanted = input.amount ? centsOfMoney(input.amount) : Math.min(credit, Math.max(invoice.openCents, 0));
    if (wanted <= 0) throw conflict("There is no credit to apply, or nothing is open on the invoice.");
    if (wanted > credit) throw conflict(`The client's credit is ${moneyOfCents(credit)}; apply at most that.`);
    const oldestFirst = [...locked].sort((left, right) =>
      left.receivedOn === right.receivedOn
        ? left.recordedAt.getTime() - right.recordedAt.getTime()
        : left.receivedOn < right.receivedOn
          ? -1
          : 1,
    );
    const today = todayIn(client.timezone, now);
    let left = wanted;
    const drawn: string[] = [];
    for (const payment of oldestFirst) {
      if (left === 0) break;
      const take = Math.min(left, remaining.get(payment.id) ?? 0);
      if (take <= 0) continue;
      await allocateFrom(tx, payment, take, [{ invoiceId: invoice.id, amountCents: take }], actor, today);
      left -= take;
      drawn.push(payment.id);
    }
    await recordAudit(
      tx,
      auditedWrite(
        actor,
        "billing.credit.applied",
        { type: "invoice", id: invoice.id },
        {
          clientId,
          amount: moneyOfCents(wanted),
          payments: drawn,
        },
      ),
    );
    return { allocated: moneyOfCents(wanted), payments: drawn };
  });
}

/** `POST /billing/invoices/{id}/write-off`: writes off what is open on an invoice, with a reason (once). */
export async function writeOffInvoice(
  db: Db,
  invoiceId: string,
  input: Parsed<typeof writeOffInvoiceSchema>,
  actor: BillingActor,
): Promise<{ invoiceId: string; amount: string }> {
  return db.transaction(async (tx) => {
    const [invoice] = await lockInvoicesForAllocation(tx, [invoiceId]);
    if (!invoice) throw new AppError("not_found", `No invoice with id ${invoiceId}.`);
    if (invoice.kind === "credit-note") throw conflict(`${invoice.number} is a credit note: nothing is owed on it.`);
    if (invoice.writtenOff) throw conflict(`${invoice.number} was written off already.`);
    if (invoice.openCents <= 0) throw conflict(`Nothing is open on ${invoice.number}.`);
    await insertWriteOff(tx, {
      invoiceId,
      clientId: invoice.clientId,
      writtenOffOn: input.writtenOffOn,
      amountCents: invoice.openCents,
      reason: input.reason,
      ...recordedBy(actor),
    });
    const amount = moneyOfCents(invoice.openCents);
    await recordAudit(
      tx,
      auditedWrite(
        actor,
        "billing.invoice.written-off",
        { type: "invoice", id: invoiceId },
        {
          number: invoice.number,
          amount,
          reason: input.reason,
        },
      ),
    );
    return { invoiceId, amount };
  });
}

export type { AllocatePayment, ApplyCredit, RecordPayment, RefundPayment, ReversePayment, WriteOffInvoice };
