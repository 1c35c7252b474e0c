import { and, eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invoices, paymentAllocations, paymentRefunds, paymentReversals, payments } from "../../db/schema.js";
import { clientIn } from "../../testing/kits/billing-kit.js";
import { type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { insertLedgerInvoice } from "../../testing/kits/receivables-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { moneyOfCents } from "./billing-money.js";
import type { BillingActor } from "./billing-service.js";
import { openCentsSql } from "./invoice-status.js";
import {
  allocatePayment,
  applyCredit,
  recordPayment,
  refundPayment,
  reversePayment,
  writeOffInvoice,
} from "./payments-service.js";
import { findAgingRows } from "./receivables-repository.js";

/**
 * Random sequences of issue, credit, pay, allocate, apply credit, reverse, refund and write-off, run through the
 * services against a plain model that applies the same rules. After every sequence, for each client:
 *
 *   balance = Σ invoices − Σ credit notes − Σ payments + Σ reversed payments + Σ refunds − Σ write-offs
 *           = Σ over its invoices of open (total − credited − net allocated − written off)
 *             − Σ over its payments of what is left (amount − net allocated − refunded; 0 once reversed)
 *
 * (the aging's balance and open sums against the ledger's rows), every payment's net allocations and refunds
 * within its amount, every invoice's net allocations within its total, and both number series without a gap.
 */

let harness: TestApp;
let team: Team;
let actor: BillingActor;

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "receivables-properties");
  actor = { sub: team.billing.sub, username: team.billing.username, name: null };
});
afterAll(() => harness.close());

type Op =
  | { op: "issue"; client: number; cents: number }
  | { op: "credit"; invoice: number; cents: number }
  | { op: "pay"; client: number; cents: number }
  | { op: "allocate"; payment: number; invoice: number; cents: number }
  | { op: "apply"; client: number; invoice: number }
  | { op: "reverse"; payment: number }
  | { op: "refund"; payment: number; cents: number }
  | { op: "writeOff"; invoice: number };

const cents = fc.integer({ min: 1, max: 50_000 });
const index = fc.nat({ max: 7 });
const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant("issue" as const), client: fc.nat({ max: 1 }), cents }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("credit" as const), invoice: index, cents }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant("pay" as const), client: fc.nat({ max: 1 }), cents }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant("allocate" as const), payment: index, invoice: index, cents }) },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant("apply" as const), client: fc.nat({ max: 1 }), invoice: index }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("reverse" as const), payment: index }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("refund" as const), payment: index, cents }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("writeOff" as const), invoice: index }) },
);

type ModelInvoice = {
  id: string;
  client: number;
  total: number;
  credited: number;
  allocated: number;
  writtenOff: number;
};
type ModelPayment = {
  id: string;
  client: number;
  amount: number;
  byInvoice: Map<string, number>;
  refunded: number;
  reversed: boolean;
};

const openOf = (invoice: ModelInvoice) => invoice.total - invoice.credited - invoice.allocated - invoice.writtenOff;
const leftOf = (payment: ModelPayment) =>
  payment.reversed ? 0 : payment.amount - [...payment.byInvoice.values()].reduce((a, b) => a + b, 0) - payment.refunded;

/** Runs one operation through the service; true when it was accepted, false when refused with a 409. */
async function accepted(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    expect((error as { code?: string }).code, String(error)).toBe("conflict");
    return false;
  }
}

async function runSequence(ops: Op[]): Promise<void> {
  const db = harness.database.db;
  const clients = [await clientIn(team, "UTC"), await clientIn(team, "America/Chicago")];
  const issued: ModelInvoice[] = [];
  const paid: ModelPayment[] = [];
  const day = { issueDate: "2026-01-05", dueDate: "2026-02-04" };
  for (const step of ops) {
    switch (step.op) {
      case "issue": {
        const client = clients[step.client]?.id as string;
        const { id } = await insertLedgerInvoice(db, { clientId: client, totalCents: step.cents, ...day });
        issued.push({ id, client: step.client, total: step.cents, credited: 0, allocated: 0, writtenOff: 0 });
        break;
      }
      case "credit": {
        const target = issued[step.invoice];
        if (!target) break;
        await insertLedgerInvoice(db, {
          clientId: clients[target.client]?.id as string,
          totalCents: step.cents,
          kind: "credit-note",
          correctsInvoiceId: target.id,
          ...day,
        });
        target.credited += step.cents;
        break;
      }
      case "pay": {
        const input = {
          clientId: clients[step.client]?.id as string,
          receivedOn: "2026-01-10",
          amount: moneyOfCents(step.cents),
          method: "wire" as const,
          reference: null,
          payer: null,
          note: null,
          allocations: [],
        };
        const payment = await recordPayment(db, input, actor, { currency: "USD" });
        paid.push({
          id: payment.id,
          client: step.client,
          amount: step.cents,
          byInvoice: new Map(),
          refunded: 0,
          reversed: false,
        });
        break;
      }
      case "allocate": {
        const payment = paid[step.payment];
        const target = issued[step.invoice];
        if (!payment || !target || payment.client !== target.client) break;
        const expected =
          !payment.reversed && target.writtenOff === 0 && step.cents <= leftOf(payment) && step.cents <= openOf(target);
        const allocations = [{ invoiceId: target.id, amount: moneyOfCents(step.cents) }];
        expect(await accepted(() => allocatePayment(db, payment.id, { allocations }, actor))).toBe(expected);
        if (expected) {
          payment.byInvoice.set(target.id, (payment.byInvoice.get(target.id) ?? 0) + step.cents);
          target.allocated += step.cents;
        }
        break;
      }
      case "apply": {
        const target = issued[step.invoice];
        if (!target || target.client !== step.client) break;
        const credit = paid.filter((p) => p.client === step.client).reduce((sum, p) => sum + leftOf(p), 0);
        const wanted = Math.min(credit, Math.max(openOf(target), 0));
        const expected = wanted > 0 && target.writtenOff === 0;
        const clientId = clients[step.client]?.id as string;
        expect(await accepted(() => applyCredit(db, clientId, { invoiceId: target.id }, actor))).toBe(expected);
        if (expected) {
          let left = wanted;
          for (const payment of paid.filter((p) => p.client === step.client)) {
            const take = Math.min(left, leftOf(payment));
            if (take <= 0) continue;
            payment.byInvoice.set(target.id, (payment.byInvoice.get(target.id) ?? 0) + take);
            left -= take;
          }
          target.allocated += wanted;
        }
        break;
      }
      case "reverse": {
        const payment = paid[step.payment];
        if (!payment) break;
        const expected = !payment.reversed && payment.refunded === 0;
        const input = { reversedOn: "2026-01-20", reason: "Returned by the bank" };
        expect(await accepted(() => reversePayment(db, payment.id, input, actor))).toBe(expected);
        if (expected) {
          for (const [invoiceId, amount] of payment.byInvoice) {
            const target = issued.find((candidate) => candidate.id === invoiceId);
            if (target) target.allocated -= amount;
          }
          payment.byInvoice.clear();
          payment.reversed = true;
        }
        break;
      }
      case "refund": {
        const payment = paid[step.payment];
        if (!payment) break;
        const expected = !payment.reversed && step.cents <= leftOf(payment);
        const input = {
          refundedOn: "2026-01-25",
          amount: moneyOfCents(step.cents),
          method: "ach" as const,
          reference: null,
          reason: "Credit paid back",
        };
        expect(await accepted(() => refundPayment(db, payment.id, input, actor))).toBe(expected);
        if (expected) payment.refunded += step.cents;
        break;
      }
      case "writeOff": {
        const target = issued[step.invoice];
        if (!target) break;
        const expected = target.writtenOff === 0 && openOf(target) > 0;
        const input = { writtenOffOn: "2026-03-01", reason: "Uncollectable" };
        expect(await accepted(() => writeOffInvoice(db, target.id, input, actor))).toBe(expected);
        if (expected) target.writtenOff = openOf(target);
        break;
      }
    }
  }

  const asOf = "2099-12-31";
  for (const [position, client] of clients.entries()) {
    const mine = issued.filter((invoice) => invoice.client === position);
    const theirs = paid.filter((payment) => payment.client === position);
    const modelBalance =
      mine.reduce((sum, invoice) => sum + openOf(invoice), 0) -
      theirs.reduce((sum, payment) => sum + leftOf(payment), 0);
    const aging = await findAgingRows(db, { asOf, clientId: client.id }, { limit: 1, offset: 0 });
    const balance = aging.rows[0]?.balanceCents ?? 0;
    // The ledger's own sums, read independently of the balance entries.
    const [opens] = await db
      .select({ open: sql<string>`coalesce(sum(${openCentsSql(asOf)}), 0)` })
      .from(invoices)
      .where(and(eq(invoices.clientId, client.id), sql`${invoices.kind} <> 'credit-note'`));
    const [lefts] = await db
      .select({
        left: sql<string>`coalesce(sum(case when exists (select 1 from ${paymentReversals} r where r.payment_id = "payments"."id") then 0
          else ${payments.amountCents}
            - (select coalesce(sum(a.amount_cents), 0) from ${paymentAllocations} a where a.payment_id = "payments"."id")
            - (select coalesce(sum(f.amount_cents), 0) from ${paymentRefunds} f where f.payment_id = "payments"."id") end), 0)`,
      })
      .from(payments)
      .where(eq(payments.clientId, client.id));
    expect({ balance, identity: Number(opens?.open) - Number(lefts?.left) }).toEqual({
      balance: modelBalance,
      identity: modelBalance,
    });
    expect(aging.rows[0]?.openCents ?? 0).toBe(mine.reduce((sum, invoice) => sum + Math.max(openOf(invoice), 0), 0));
  }
  // Never beyond a payment (net allocations and refunds within it, none negative) nor an invoice's total.
  const overdrawn = await harness.database.db.execute(sql`
    select p.id from payments p
    where (select coalesce(sum(amount_cents), 0) from payment_allocations a where a.payment_id = p.id)
        + (select coalesce(sum(amount_cents), 0) from payment_refunds f where f.payment_id = p.id) > p.amount_cents
       or (select coalesce(sum(amount_cents), 0) from payment_allocations a where a.payment_id = p.id) < 0
    union all
    select i.id from invoices i
    where (select coalesce(sum(amount_cents), 0) from payment_allocations a where a.invoice_id = i.id) > round(i.total * 100)`);
  expect((overdrawn as unknown as { rows: unknown[] }).rows).toEqual([]);
}

describe("the receivables ledger under random sequences", () => {
  it("keeps every balance identity, never over-allocates, and numbers invoices without a gap", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArbitrary, { minLength: 4, maxLength: 18 }), runSequence),
      // Tens of runs: enough to reach reversals after allocations and refunds after credits, short enough for CI.
      { numRuns: 20 },
    );
    const series = await harness.database.db
      .select({
        series: invoices.series,
        year: invoices.year,
        count: sql<number>`count(*)`.mapWith(Number),
        max: sql<number>`max(${invoices.sequence})`.mapWith(Number),
      })
      .from(invoices)
      .groupBy(invoices.series, invoices.year);
    expect(series.length).toBeGreaterThan(0);
    for (const row of series) expect(row.count, `${row.series}-${row.year}`).toBe(row.max);
  }, 120_000);
});
