import type { AgingReport, BillingOverview, Invoice, Payment, StatementOfAccount } from "@vigil/contract";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paymentAllocations, payments } from "../../db/schema.js";
import { clientIn } from "../../testing/kits/billing-kit.js";
import { auditRows, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { insertLedgerInvoice } from "../../testing/kits/receivables-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { allocatePayment } from "./payments-service.js";

let harness: TestApp;
let team: Team;

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "payments");
});
afterAll(() => harness.close());

const paymentsBase = "/api/billing/payments";

async function invoiceFor(clientId: string, totalCents: number, issueDate = "2026-01-05", dueDate = "2026-02-04") {
  return insertLedgerInvoice(harness.database.db, { clientId, totalCents, issueDate, dueDate });
}

async function record(body: Record<string, unknown>): Promise<Payment> {
  const response = await team.billing("POST", paymentsBase, {
    body: { receivedOn: "2026-02-10", method: "check", reference: "CHK-1001", ...body },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
}

async function invoice(id: string): Promise<Invoice> {
  const response = await team.billing("GET", `/api/billing/invoices/${id}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

describe("recording and allocating payments", () => {
  it("allocates one payment across two invoices and keeps the rest as the client's credit", async () => {
    const client = await clientIn(team, "America/New_York");
    const first = await invoiceFor(client.id, 60_000);
    const second = await invoiceFor(client.id, 50_000);
    const payment = await record({
      clientId: client.id,
      amount: "1000.00",
      payer: "St. Mary's AP",
      allocations: [
        { invoiceId: first.id, amount: "600" },
        { invoiceId: second.id, amount: "200.50" },
      ],
    });
    expect(payment).toMatchObject({ amount: "1000.00", allocated: "800.50", unallocated: "199.50", reversal: null });
    expect(payment.allocations.map((row) => [row.invoice.number, row.amount])).toEqual([
      [first.number, "600.00"],
      [second.number, "200.50"],
    ]);
    expect(await invoice(first.id)).toMatchObject({ status: "paid", open: "0.00" });
    expect(await invoice(second.id)).toMatchObject({ open: "299.50" });
    const [audit] = await auditRows(harness, "billing.payment.recorded", payment.id);
    expect(audit?.actorUsername).toBeTruthy();

    // The credit pays a later invoice.
    const later = await invoiceFor(client.id, 10_000, "2026-02-05", "2026-03-07");
    const applied = await team.billing("POST", `/api/billing/clients/${client.id}/credit/apply`, {
      body: { invoiceId: later.id },
    });
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json().data).toEqual({ allocated: "100.00", payments: [payment.id] });
    expect(await invoice(later.id)).toMatchObject({ status: "paid", open: "0.00" });
  });

  it("refuses allocations beyond the payment or the invoice with 409, writing nothing", async () => {
    const client = await clientIn(team, "UTC");
    const small = await invoiceFor(client.id, 10_000);
    const large = await invoiceFor(client.id, 90_000);
    const payment = await record({ clientId: client.id, amount: "500.00" });
    const beyondPayment = await team.billing("POST", `${paymentsBase}/${payment.id}/allocations`, {
      body: {
        allocations: [
          { invoiceId: large.id, amount: "400" },
          { invoiceId: small.id, amount: "100.01" },
        ],
      },
    });
    expect(beyondPayment.statusCode, beyondPayment.body).toBe(409);
    const beyondInvoice = await team.billing("POST", `${paymentsBase}/${payment.id}/allocations`, {
      body: { allocations: [{ invoiceId: small.id, amount: "100.01" }] },
    });
    expect(beyondInvoice.statusCode, beyondInvoice.body).toBe(409);
    const malformed = await team.billing("POST", `${paymentsBase}/${payment.id}/allocations`, {
      body: { allocations: [{ invoiceId: small.id, amount: "-5" }] },
    });
    expect(malformed.statusCode).toBe(400);
    const rows = await harness.database.db
      .select()
      .from(paymentAllocations)
      .where(eq(paymentAllocations.paymentId, payment.id));
    expect(rows).toEqual([]);
  });

  it("reverses a bounced payment with new entries that reopen its invoices, once", async () => {
    const client = await clientIn(team, "UTC");
    const billed = await invoiceFor(client.id, 30_000);
    const payment = await record({
      clientId: client.id,
      amount: "300.00",
      allocations: [{ invoiceId: billed.id, amount: "300" }],
    });
    expect((await invoice(billed.id)).status).toBe("paid");
    const reversed = await team.billing("POST", `${paymentsBase}/${payment.id}/reversal`, {
      body: { reversedOn: "2026-02-12", reason: "Returned: insufficient funds" },
    });
    expect(reversed.statusCode, reversed.body).toBe(200);
    const after: Payment = reversed.json().data;
    expect(after).toMatchObject({ allocated: "0.00", unallocated: "0.00" });
    expect(after.reversal?.reason).toBe("Returned: insufficient funds");
    expect(after.allocations.map((row) => row.amount)).toEqual(["300.00", "-300.00"]);
    expect(after.allocations[1]?.reversesAllocationId).toBe(after.allocations[0]?.id);
    expect(await invoice(billed.id)).toMatchObject({ open: "300.00" });
    const again = await team.billing("POST", `${paymentsBase}/${payment.id}/reversal`, {
      body: { reversedOn: "2026-02-12", reason: "twice" },
    });
    expect(again.statusCode).toBe(409);
    expect(await auditRows(harness, "billing.payment.reversed", payment.id)).toHaveLength(1);
  });

  it("refunds a credit balance only up to what is left, and writes off an invoice with a reason", async () => {
    const client = await clientIn(team, "UTC");
    const billed = await invoiceFor(client.id, 20_000);
    const payment = await record({
      clientId: client.id,
      amount: "250.00",
      allocations: [{ invoiceId: billed.id, amount: "150" }],
    });
    const tooMuch = await team.billing("POST", `${paymentsBase}/${payment.id}/refunds`, {
      body: { refundedOn: "2026-02-20", amount: "100.01", method: "ach", reason: "Overpaid" },
    });
    expect(tooMuch.statusCode).toBe(409);
    const refund = await team.billing("POST", `${paymentsBase}/${payment.id}/refunds`, {
      body: { refundedOn: "2026-02-20", amount: "100", method: "ach", reason: "Overpaid" },
    });
    expect(refund.statusCode, refund.body).toBe(200);
    expect(refund.json().data).toMatchObject({ refunded: "100.00", unallocated: "0.00" });
    const noReversal = await team.billing("POST", `${paymentsBase}/${payment.id}/reversal`, {
      body: { reversedOn: "2026-02-21", reason: "bounced" },
    });
    expect(noReversal.statusCode).toBe(409);

    const writeOff = await team.billing("POST", `/api/billing/invoices/${billed.id}/write-off`, {
      body: { writtenOffOn: "2026-06-30", reason: "Hospital closed" },
    });
    expect(writeOff.statusCode, writeOff.body).toBe(200);
    expect(writeOff.json().data).toEqual({ invoiceId: billed.id, amount: "50.00" });
    expect(await invoice(billed.id)).toMatchObject({ status: "written-off", open: "0.00" });
    const [audit] = await auditRows(harness, "billing.invoice.written-off", billed.id);
    expect(audit?.details).toMatchObject({ reason: "Hospital closed", amount: "50.00" });
  });

  it("keeps the ledger append-only: the database refuses UPDATE and DELETE", async () => {
    const client = await clientIn(team, "UTC");
    const payment = await record({ clientId: client.id, amount: "10.00" });
    const db = harness.database.db;
    const refusal = async (write: Promise<unknown>) => {
      try {
        await write;
        return "accepted";
      } catch (error) {
        const failure = error as { code?: string; cause?: { code?: string } };
        return failure.cause?.code ?? failure.code;
      }
    };
    expect(await refusal(db.update(payments).set({ amountCents: 1 }).where(eq(payments.id, payment.id)))).toBe("23001");
    expect(await refusal(db.execute(sql`delete from payments where id = ${payment.id}`))).toBe("23001");
    expect(await refusal(db.execute(sql`update payment_allocations set amount_cents = 1`))).toBe("23001");
  });
});

describe("two users allocating one payment at once", () => {
  it("never allocate more than the payment: the payment row's lock makes them queue", async () => {
    const client = await clientIn(team, "UTC");
    const invoiceIds = await Promise.all([1, 2, 3, 4, 5, 6].map(() => invoiceFor(client.id, 40_000)));
    const payment = await record({ clientId: client.id, amount: "1000.00" });
    const actor = { sub: team.billing.sub, username: team.billing.username, name: null };
    // Each asks for 400.00 of the 1000.00: at most two can have it.
    const results = await Promise.allSettled(
      invoiceIds.map((target) =>
        allocatePayment(
          harness.database.db,
          payment.id,
          { allocations: [{ invoiceId: target.id, amount: "400.00" }] },
          actor,
        ),
      ),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(2);
    const [sum] = await harness.database.db
      .select({ total: sql<string>`sum(${paymentAllocations.amountCents})` })
      .from(paymentAllocations)
      .where(eq(paymentAllocations.paymentId, payment.id));
    expect(Number(sum?.total)).toBe(80_000);
  });
});

describe("aging and the statement of account", () => {
  it("buckets open amounts by days past due as of a date and shows the oldest overdue invoice", async () => {
    const client = await clientIn(team, "UTC", "Aging Client");
    const old = await invoiceFor(client.id, 10_000, "2026-01-01", "2026-01-31");
    await invoiceFor(client.id, 20_000, "2026-03-01", "2026-03-31");
    await invoiceFor(client.id, 40_000, "2026-04-20", "2026-05-20");
    await record({
      clientId: client.id,
      amount: "25.00",
      receivedOn: "2026-02-01",
      allocations: [{ invoiceId: old.id, amount: "25" }],
    });
    const read = async (asOf: string): Promise<AgingReport> => {
      const response = await team.billing("GET", `/api/billing/receivables/aging?asOf=${asOf}&clientId=${client.id}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data;
    };
    const may = await read("2026-05-10");
    expect(may.items).toHaveLength(1);
    expect(may.items[0]).toMatchObject({
      current: "400.00",
      days1to30: "0.00",
      days31to60: "200.00",
      days61to90: "0.00",
      over90: "75.00",
      open: "675.00",
      credit: "0.00",
      balance: "675.00",
      oldestOverdue: { invoiceId: old.id, daysPastDue: 99 },
    });
    expect(may.totals.balance).toBe("675.00");
    // Before the later invoices were issued, only the first counts.
    expect((await read("2026-02-15")).items[0]).toMatchObject({ days1to30: "75.00", open: "75.00", balance: "75.00" });
  });

  it("gives the billing overview each client's balance and oldest overdue invoice, as aging has them today", async () => {
    const client = await clientIn(team, "UTC", "Overview Receivables Client");
    const old = await invoiceFor(client.id, 30_000, "2026-01-01", "2026-01-31");
    await invoiceFor(client.id, 5_000, "2026-02-01", "2026-03-03");
    await record({ clientId: client.id, amount: "20.00", allocations: [{ invoiceId: old.id, amount: "20" }] });
    const overview = await team.billing("GET", `/api/billing/continuous-monitoring?clientId=${client.id}`);
    expect(overview.statusCode, overview.body).toBe(200);
    const receivables: BillingOverview["receivables"] = overview.json().data.receivables;
    const aging = await team.billing("GET", `/api/billing/receivables/aging?clientId=${client.id}`);
    const row: AgingReport["items"][number] = aging.json().data.items[0];
    expect(receivables).toEqual([
      { clientId: client.id, balance: "330.00", oldestOverdue: { ...row.oldestOverdue, invoiceId: old.id } },
    ]);
    expect(row.balance).toBe("330.00");
  });

  it("lists every entry of a period with the running balance, as JSON, CSV and PDF", async () => {
    const client = await clientIn(team, "Europe/Berlin", "Statement Client");
    const first = await invoiceFor(client.id, 50_000, "2026-01-05", "2026-02-04");
    await invoiceFor(client.id, 30_000, "2026-02-05", "2026-03-07");
    const payment = await record({
      clientId: client.id,
      amount: "600.00",
      receivedOn: "2026-02-10",
      allocations: [{ invoiceId: first.id, amount: "500" }],
    });
    await team.billing("POST", `${paymentsBase}/${payment.id}/refunds`, {
      body: { refundedOn: "2026-02-15", amount: "50", method: "ach", reason: "Asked back" },
    });
    const path = `/api/billing/clients/${client.id}/statement-of-account?from=2026-02-01&to=2026-02-28`;
    const response = await team.billing("GET", path);
    expect(response.statusCode, response.body).toBe(200);
    const statement: StatementOfAccount = response.json().data;
    expect(statement.openingBalance).toBe("500.00");
    expect(
      statement.entries.map((entry) => [entry.date, entry.kind, entry.debit, entry.credit, entry.balance]),
    ).toEqual([
      ["2026-02-05", "invoice", "300.00", "0.00", "800.00"],
      ["2026-02-10", "payment", "0.00", "600.00", "200.00"],
      ["2026-02-10", "allocation", "0.00", "0.00", "200.00"],
      ["2026-02-15", "refund", "50.00", "0.00", "250.00"],
    ]);
    expect(statement.closingBalance).toBe("250.00");
    const csv = await team.billing("GET", path.replace("statement-of-account?", "statement-of-account/csv?"));
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split("\r\n")[0]).toBe("date,kind,document,description,debit,credit,balance");
    expect(csv.body).toContain("2026-02-15,refund,,Refund: Asked back,50.00,0.00,250.00");
    const pdf = await team.billing("GET", path.replace("statement-of-account?", "statement-of-account/pdf?"));
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
  });
});
