import { type InvoiceAllocations, type Payment, reversalRefusalOf } from "@vigil/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientIn } from "../../testing/kits/billing-kit.js";
import { type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { insertLedgerInvoice } from "../../testing/kits/receivables-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

let harness: TestApp;
let team: Team;

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "invoice-allocations");
});
afterAll(() => harness.close());

async function record(body: Record<string, unknown>): Promise<Payment> {
  const response = await team.billing("POST", "/api/billing/payments", { body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
}

async function allocationsOf(invoiceId: string): Promise<InvoiceAllocations> {
  const response = await team.billing("GET", `/api/billing/invoices/${invoiceId}/allocations`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

describe("an invoice's payments and allocations", () => {
  it("lists payments, a reversal, a credit note and a write-off in date order with the running amount due", async () => {
    const client = await clientIn(team, "UTC");
    const db = harness.database.db;
    const billed = await insertLedgerInvoice(db, {
      clientId: client.id,
      totalCents: 100_000,
      issueDate: "2026-01-05",
      dueDate: "2026-02-04",
    });
    // Recorded out of date order: the list follows the dates the entries apply from.
    const second = await record({
      clientId: client.id,
      receivedOn: "2026-03-02",
      amount: "300.00",
      method: "ach",
      reference: "ACH-77",
      payer: "St. Mary's AP",
      allocations: [{ invoiceId: billed.id, amount: "300" }],
    });
    const first = await record({
      clientId: client.id,
      receivedOn: "2026-02-10",
      amount: "400.00",
      method: "check",
      reference: "CHK-1001",
      payer: null,
      allocations: [{ invoiceId: billed.id, amount: "400" }],
    });
    const bounced = await team.billing("POST", `/api/billing/payments/${first.id}/reversal`, {
      body: { reversedOn: "2026-02-15", reason: "Returned: insufficient funds" },
    });
    expect(bounced.statusCode, bounced.body).toBe(200);
    await insertLedgerInvoice(db, {
      clientId: client.id,
      totalCents: 10_000,
      issueDate: "2026-03-05",
      dueDate: "2026-03-05",
      kind: "credit-note",
      correctsInvoiceId: billed.id,
    });
    const writeOff = await team.billing("POST", `/api/billing/invoices/${billed.id}/write-off`, {
      body: { writtenOffOn: "2026-06-30", reason: "Hospital closed" },
    });
    expect(writeOff.statusCode, writeOff.body).toBe(200);

    const listed = await allocationsOf(billed.id);
    expect(listed).toMatchObject({ invoiceId: billed.id, number: billed.number, total: "1000.00", amountDue: "0.00" });
    expect(listed.entries.map((entry) => [entry.kind, entry.date, entry.amount, entry.amountDue])).toEqual([
      ["allocation", "2026-02-10", "400.00", "600.00"],
      ["allocation-reversal", "2026-02-15", "-400.00", "1000.00"],
      ["allocation", "2026-03-02", "300.00", "700.00"],
      ["credit-note", "2026-03-05", "100.00", "600.00"],
      ["write-off", "2026-06-30", "600.00", "0.00"],
    ]);
    expect(listed.entries[0]?.payment).toEqual({
      id: first.id,
      receivedOn: "2026-02-10",
      payer: null,
      method: "check",
      reference: "CHK-1001",
    });
    expect(listed.entries[1]?.reason).toBe("Returned: insufficient funds");
    expect(listed.entries[2]?.payment).toMatchObject({ id: second.id, payer: "St. Mary's AP", method: "ach" });
    expect(listed.entries[3]?.document).toMatch(/^CN-/);
    expect(listed.entries[4]).toMatchObject({ payment: null, reason: "Hospital closed" });
  });

  it("lists nothing applied yet on a new invoice, its whole total due", async () => {
    const client = await clientIn(team, "UTC");
    const billed = await insertLedgerInvoice(harness.database.db, {
      clientId: client.id,
      totalCents: 12_345,
      issueDate: "2026-01-05",
      dueDate: "2026-02-04",
    });
    expect(await allocationsOf(billed.id)).toMatchObject({ entries: [], total: "123.45", amountDue: "123.45" });
  });

  it("answers 404 for an unknown invoice and 400 for an id that is not one", async () => {
    const unknown = await team.billing("GET", "/api/billing/invoices/00000000-0000-4000-8000-000000000000/allocations");
    expect(unknown.statusCode, unknown.body).toBe(404);
    const malformed = await team.billing("GET", "/api/billing/invoices/not-an-id/allocations");
    expect(malformed.statusCode, malformed.body).toBe(400);
  });
});

describe("reversing a refunded payment", () => {
  it("is refused with the contract's rule, the one the payments page shows", async () => {
    const client = await clientIn(team, "UTC");
    const payment = await record({ clientId: client.id, receivedOn: "2026-02-10", amount: "50.00", method: "wire" });
    const refunded = await team.billing("POST", `/api/billing/payments/${payment.id}/refunds`, {
      body: { refundedOn: "2026-02-11", amount: "20", method: "wire", reason: "Overpaid" },
    });
    expect(refunded.statusCode, refunded.body).toBe(200);
    const after: Payment = refunded.json().data;
    const refusal = reversalRefusalOf(after);
    expect(refusal).toMatch(/refunded/);
    const reversal = await team.billing("POST", `/api/billing/payments/${payment.id}/reversal`, {
      body: { reversedOn: "2026-02-12", reason: "bounced" },
    });
    expect(reversal.statusCode).toBe(409);
    expect(reversal.json().error.message).toBe(refusal);
    expect(reversalRefusalOf({ reversal: null, refunded: "0.00" })).toBeNull();
  });
});
