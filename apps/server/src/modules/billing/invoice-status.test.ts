import type { InvoiceStatus } from "@vigil/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invoices, invoiceWriteOffs, paymentAllocations, payments } from "../../db/schema.js";
import { clientIn } from "../../testing/kits/billing-kit.js";
import { type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { insertLedgerInvoice } from "../../testing/kits/receivables-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { invoiceFiguresSql, invoiceStatusOf, invoiceStatusSql, openCentsOf, openCentsSql } from "./invoice-status.js";

let harness: TestApp;
let team: Team;

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "invoice-status");
});
afterAll(() => harness.close());

const due = { kind: "invoice" as const, dueDate: "2026-03-31", totalCents: 10_000 };
const none = { creditedCents: 0, allocatedCents: 0, writtenOffCents: 0 };

describe("the invoice status rule", () => {
  it.each<[string, Parameters<typeof invoiceStatusOf>[0], string, InvoiceStatus]>([
    ["nothing paid before the due date", { ...due, ...none }, "2026-03-31", "issued"],
    ["nothing paid the day after the due date", { ...due, ...none }, "2026-04-01", "overdue"],
    ["part paid before the due date", { ...due, ...none, allocatedCents: 1 }, "2026-03-01", "partly-paid"],
    ["part paid after the due date", { ...due, ...none, allocatedCents: 9_999 }, "2026-04-01", "overdue"],
    ["paid in full late", { ...due, ...none, allocatedCents: 10_000 }, "2026-09-01", "paid"],
    [
      "settled by a credit note and a payment",
      { ...due, creditedCents: 4_000, allocatedCents: 6_000, writtenOffCents: 0 },
      "2026-09-01",
      "paid",
    ],
    ["credited beyond what was left", { ...due, ...none, creditedCents: 12_000 }, "2026-09-01", "paid"],
    [
      "written off after part payment",
      { ...due, ...none, allocatedCents: 2_500, writtenOffCents: 7_500 },
      "2026-09-01",
      "written-off",
    ],
    ["a credit note, long after its date", { ...due, ...none, kind: "credit-note" }, "2030-01-01", "issued"],
  ])("%s", (_name, figures, asOf, status) => {
    expect(invoiceStatusOf(figures, asOf)).toBe(status);
  });

  it("says the same in SQL as in TypeScript, as of dates before and after each ledger entry", async () => {
    const client = await clientIn(team, "UTC");
    const db = harness.database.db;
    const base = { clientId: client.id, issueDate: "2026-03-01", dueDate: "2026-03-31" };
    const unpaid = await insertLedgerInvoice(db, { ...base, totalCents: 10_000 });
    const partly = await insertLedgerInvoice(db, { ...base, totalCents: 10_000 });
    const paid = await insertLedgerInvoice(db, { ...base, totalCents: 10_000 });
    const credited = await insertLedgerInvoice(db, { ...base, totalCents: 10_000 });
    const writtenOff = await insertLedgerInvoice(db, { ...base, totalCents: 10_000 });
    await insertLedgerInvoice(db, {
      ...base,
      issueDate: "2026-03-20",
      kind: "credit-note",
      totalCents: 10_000,
      correctsInvoiceId: credited.id,
    });
    const author = { recordedByUsername: "status-test" };
    const [payment] = await db
      .insert(payments)
      .values({
        clientId: client.id,
        receivedOn: "2026-03-10",
        amountCents: 50_000,
        currency: "USD",
        method: "wire",
        ...author,
      })
      .returning();
    const paymentId = payment?.id as string;
    await db.insert(paymentAllocations).values([
      {
        paymentId,
        invoiceId: partly.id,
        clientId: client.id,
        amountCents: 3_000,
        allocatedOn: "2026-03-10",
        ...author,
      },
      { paymentId, invoiceId: paid.id, clientId: client.id, amountCents: 4_000, allocatedOn: "2026-03-10", ...author },
      { paymentId, invoiceId: paid.id, clientId: client.id, amountCents: 6_000, allocatedOn: "2026-04-15", ...author },
      {
        paymentId,
        invoiceId: writtenOff.id,
        clientId: client.id,
        amountCents: 1_000,
        allocatedOn: "2026-03-10",
        ...author,
      },
    ]);
    await db.insert(invoiceWriteOffs).values({
      invoiceId: writtenOff.id,
      clientId: client.id,
      writtenOffOn: "2026-06-30",
      amountCents: 9_000,
      reason: "Uncollectable",
      ...author,
    });

    const ids = [unpaid, partly, paid, credited, writtenOff].map((invoice) => invoice.id);
    for (const asOf of ["2026-03-05", "2026-03-15", "2026-03-25", "2026-04-01", "2026-04-20", "2026-07-01"]) {
      const figures = invoiceFiguresSql(asOf);
      const rows = await db
        .select({
          id: invoices.id,
          kind: invoices.kind,
          dueDate: invoices.dueDate,
          total: invoices.total,
          creditedCents: figures.creditedCents.mapWith(Number),
          allocatedCents: figures.allocatedCents.mapWith(Number),
          writtenOffCents: figures.writtenOffCents.mapWith(Number),
          openCents: openCentsSql(asOf).mapWith(Number),
          status: invoiceStatusSql(asOf),
        })
        .from(invoices)
        .where(eq(invoices.clientId, client.id));
      for (const row of rows.filter((candidate) => ids.includes(candidate.id))) {
        const rule = { ...row, totalCents: Math.round(Number(row.total) * 100) };
        expect({ asOf, id: row.id, status: row.status, open: row.openCents }).toEqual({
          asOf,
          id: row.id,
          status: invoiceStatusOf(rule, asOf),
          open: openCentsOf(rule),
        });
      }
    }
    const statusesOn = async (asOf: string) =>
      (
        await db
          .select({ id: invoices.id, status: invoiceStatusSql(asOf) })
          .from(invoices)
          .where(eq(invoices.clientId, client.id))
      )
        .filter((row) => ids.includes(row.id))
        .sort((left, right) => ids.indexOf(left.id) - ids.indexOf(right.id))
        .map((row) => row.status);
    expect(await statusesOn("2026-03-15")).toEqual(["issued", "partly-paid", "partly-paid", "issued", "partly-paid"]);
    expect(await statusesOn("2026-07-01")).toEqual(["overdue", "overdue", "paid", "paid", "written-off"]);
  });
});
