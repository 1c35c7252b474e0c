import type { ClientBillingProfile, Invoice, InvoicePage, InvoiceSending } from "@vigil/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientIn, issueStatement, logTime, monitoredCase, setRate } from "../../testing/kits/billing-kit.js";
import { auditRows, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { appOnSameDatabase, type MailServer, startMailServer } from "../../testing/kits/findings-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { sweepInvoiceReminders } from "./invoice-reminders.js";

let mail: MailServer;
let harness: TestApp;
let team: Team;

beforeAll(async () => {
  mail = await startMailServer();
  harness = await createTestApp({ SMTP_URL: mail.url });
  team = await teamFor(harness, "invoice-reminders");
}, 60_000);
afterAll(async () => {
  await harness.close();
  await mail.close();
});

/** A client with a billing contact, its profile's reminders as given, and June invoiced (4 h at 150.00). */
async function invoicedClient(profile: Partial<ClientBillingProfile>) {
  const client = await clientIn(team, "UTC");
  const email = `ap.${client.id.slice(0, 8)}@hospital.example`;
  const contact = await team.coordinator("POST", `/clients/${client.id}/contacts`, {
    body: { name: "Avery Payable", email, phone: null },
  });
  expect(contact.statusCode, contact.body).toBe(201);
  const saved = await team.billing("PUT", `/api/billing/clients/${client.id}/profile`, {
    body: {
      legalName: null,
      poNumber: null,
      paymentTermsDays: 30,
      taxRatePercent: null,
      showPatientNames: false,
      billingContactIds: [contact.json().data._id],
      baseVersion: null,
      ...profile,
    },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  const subject = await monitoredCase(harness, team, client.id);
  await logTime(team.technologist, subject.id, "2026-06-10T08:00:00.000Z", "2026-06-10T12:00:00.000Z");
  expect((await setRate(team.billing, client.id, "2026-06", "150")).statusCode).toBe(200);
  expect((await issueStatement(team.billing, client.id, "2026-06")).statusCode).toBe(201);
  const page: InvoicePage = (await team.billing("GET", `/api/billing/invoices?clientId=${client.id}`)).json().data;
  const invoice: Invoice = (await team.billing("GET", `/api/billing/invoices/${page.items[0]?.id}`)).json().data;
  return { invoice, email };
}

async function remindersOf(invoiceId: string): Promise<InvoiceSending[]> {
  const response = await team.billing("GET", `/api/billing/invoices/${invoiceId}/sendings`);
  return (response.json().data.items as InvoiceSending[]).filter((sending) => sending.purpose === "reminder");
}

function daysAfter(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

describe("overdue invoice reminders", () => {
  it("reminds once at 7 and once at 30 days overdue, never a paid invoice or an opted-out client, with the PDF again", async () => {
    const owing = await invoicedClient({});
    const optedOut = await invoicedClient({ remindersEnabled: false });
    // Paid in full (the receivables ledger): its status is `paid`, never `overdue`.
    const paid = await invoicedClient({});
    const payment = await team.billing("POST", "/api/billing/payments", {
      body: {
        clientId: paid.invoice.client.id,
        receivedOn: paid.invoice.issueDate,
        amount: paid.invoice.total,
        method: "check",
        allocations: [{ invoiceId: paid.invoice.id, amount: paid.invoice.total }],
      },
    });
    expect(payment.statusCode, payment.body).toBe(201);
    const due = owing.invoice.dueDate;

    expect(await sweepInvoiceReminders(harness.database.db, daysAfter(due, 6))).toBe(0);
    // Two instances sweeping the same day: the (invoice, 7) row is inserted once.
    const second = await appOnSameDatabase(harness);
    try {
      const [first, other] = await Promise.all([
        sweepInvoiceReminders(harness.database.db, daysAfter(due, 8)),
        sweepInvoiceReminders(second.database.db, daysAfter(due, 8)),
      ]);
      expect(first + other).toBeGreaterThanOrEqual(1);
    } finally {
      await second.close();
    }
    expect((await remindersOf(owing.invoice.id)).map((sending) => sending.reminderDays)).toEqual([7]);
    expect(await sweepInvoiceReminders(harness.database.db, daysAfter(due, 9))).toBe(0);

    await sweepInvoiceReminders(harness.database.db, daysAfter(due, 31));
    expect(await sweepInvoiceReminders(harness.database.db, daysAfter(due, 45))).toBe(0);
    expect((await remindersOf(owing.invoice.id)).map((sending) => sending.reminderDays)).toEqual([30, 7]);
    expect(await remindersOf(optedOut.invoice.id)).toEqual([]);
    expect(await remindersOf(paid.invoice.id)).toEqual([]);

    const runner = await appOnSameDatabase(harness, { runJobs: true });
    try {
      const started = Date.now();
      while (!(await remindersOf(owing.invoice.id)).every((sending) => sending.status === "sent")) {
        if (Date.now() - started > 20_000) throw new Error("the reminders did not leave within 20 s");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await runner.close();
    }
    const reminders = mail.received.filter((message) => message.to.includes(owing.email));
    expect(
      reminders.filter((message) => message.data.includes(`Reminder: Invoice ${owing.invoice.number} is overdue`)),
    ).toHaveLength(2);
    expect(reminders.every((message) => message.data.includes(`${owing.invoice.number}.pdf`))).toBe(true);
    expect(mail.received.some((message) => message.to.includes(optedOut.email))).toBe(false);
  }, 90_000);
});

describe("a reminder settled between the sweep and its sending", () => {
  it("sends nothing for an invoice paid or written off after it was queued, and says why on the invoice", async () => {
    const paidLater = await invoicedClient({});
    const writtenOffLater = await invoicedClient({});
    const stillOwing = await invoicedClient({});
    const sweepDay = daysAfter(paidLater.invoice.dueDate, 8);
    // The sweep queues the three while they are overdue; this app runs no jobs, so none has left yet.
    expect(await sweepInvoiceReminders(harness.database.db, sweepDay)).toBeGreaterThanOrEqual(3);
    for (const { invoice } of [paidLater, writtenOffLater, stillOwing]) {
      expect((await remindersOf(invoice.id)).map((sending) => sending.status)).toEqual(["pending"]);
    }

    const payment = await team.billing("POST", "/api/billing/payments", {
      body: {
        clientId: paidLater.invoice.client.id,
        receivedOn: paidLater.invoice.issueDate,
        amount: paidLater.invoice.total,
        method: "ach",
        allocations: [{ invoiceId: paidLater.invoice.id, amount: paidLater.invoice.total }],
      },
    });
    expect(payment.statusCode, payment.body).toBe(201);
    const writeOff = await team.billing("POST", `/api/billing/invoices/${writtenOffLater.invoice.id}/write-off`, {
      body: { writtenOffOn: writtenOffLater.invoice.issueDate, reason: "Hospital closed" },
    });
    expect(writeOff.statusCode, writeOff.body).toBe(200);

    const runner = await appOnSameDatabase(harness, { runJobs: true });
    try {
      const started = Date.now();
      const ids = [paidLater, writtenOffLater, stillOwing].map(({ invoice }) => invoice.id);
      while (
        !(await Promise.all(ids.map(remindersOf))).every((list) =>
          list.every((sending) => sending.status !== "pending"),
        )
      ) {
        if (Date.now() - started > 20_000) throw new Error("the reminders were not settled within 20 s");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await runner.close();
    }

    const [paidReminder] = await remindersOf(paidLater.invoice.id);
    expect(paidReminder).toMatchObject({
      status: "withdrawn",
      lastError: `Not sent: ${paidLater.invoice.number} was paid before the reminder left.`,
      attachmentSha256: null,
    });
    const [writtenOffReminder] = await remindersOf(writtenOffLater.invoice.id);
    expect(writtenOffReminder?.lastError).toBe(
      `Not sent: ${writtenOffLater.invoice.number} was written off before the reminder left.`,
    );
    expect((await remindersOf(stillOwing.invoice.id))[0]?.status).toBe("sent");
    expect(mail.received.some((message) => message.to.includes(paidLater.email))).toBe(false);
    expect(mail.received.some((message) => message.to.includes(writtenOffLater.email))).toBe(false);
    expect(mail.received.some((message) => message.to.includes(stillOwing.email))).toBe(true);
    const [audit] = await auditRows(harness, "billing.invoice.reminder-withdrawn", paidLater.invoice.id);
    expect(audit?.details).toMatchObject({ reminderDays: 7, reason: expect.stringContaining("was paid") });
    expect(await auditRows(harness, "billing.invoice.reminded", paidLater.invoice.id)).toEqual([]);
  }, 90_000);
});
