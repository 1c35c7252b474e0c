import { createHash } from "node:crypto";
import type { BillingStatement, ClientBillingProfile, Invoice, InvoicePage, IssuedStatement } from "@vigil/contract";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { billingDocumentCounters, invoiceLines, invoices } from "../../db/schema.js";
import {
  billingBase,
  clientIn,
  issueStatement,
  logTime,
  monitoredCase,
  setRate,
} from "../../testing/kits/billing-kit.js";
import { auditRows, type Team, teamFor, unknownId } from "../../testing/kits/cases-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { takeDocumentNumber } from "./invoices-repository.js";
import { todayIn } from "./invoices-service.js";

const invoicesBase = "/api/billing/invoices";
const profilePath = (clientId: string) => `/api/billing/clients/${clientId}/profile`;

let harness: TestApp;
let team: Team;

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "invoicing");
});
afterAll(() => harness.close());

/** A client in `timezone` with one case of 3 h on 10 June 2026 and 1 h on 14 June, at 150.00 an hour: 600.00. */
async function billedJune(timezone = "UTC") {
  const client = await clientIn(team, timezone);
  const subject = await monitoredCase(harness, team, client.id);
  await logTime(team.technologist, subject.id, "2026-06-10T08:00:00.000Z", "2026-06-10T11:00:00.000Z");
  await logTime(team.technologist, subject.id, "2026-06-14T08:00:00.000Z", "2026-06-14T09:00:00.000Z");
  expect((await setRate(team.billing, client.id, "2026-06", "150")).statusCode).toBe(200);
  return { client, subject };
}

async function issueJune(clientId: string): Promise<IssuedStatement> {
  const response = await issueStatement(team.billing, clientId, "2026-06");
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
}

async function invoiceOf(id: string): Promise<Invoice> {
  const response = await team.billing("GET", `${invoicesBase}/${id}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

async function setProfile(clientId: string, changes: Partial<ClientBillingProfile>) {
  const current: ClientBillingProfile = (await team.billing("GET", profilePath(clientId))).json().data;
  return team.billing("PUT", profilePath(clientId), {
    body: {
      legalName: current.legalName,
      poNumber: current.poNumber,
      paymentTermsDays: current.paymentTermsDays,
      taxRatePercent: current.taxRatePercent,
      showPatientNames: current.showPatientNames,
      baseVersion: current.version,
      ...changes,
    },
  });
}

describe("issuing a month's statement issues its invoice", () => {
  it("numbers it, dates it net 30, bills the client without patient names, and keeps the PDF as issued", async () => {
    const { client, subject } = await billedJune();
    const statement = await issueJune(client.id);
    expect(statement.invoice?.number).toMatch(/^INV-\d{4}-\d{5}$/);

    const invoice = await invoiceOf(statement.invoice?.id as string);
    const today = todayIn("UTC", new Date());
    const due = new Date(`${today}T00:00:00Z`);
    due.setUTCDate(due.getUTCDate() + 30);
    expect(invoice).toMatchObject({
      kind: "invoice",
      number: statement.invoice?.number,
      client: { id: client.id, name: client.name },
      statementId: statement.id,
      month: "2026-06",
      issueDate: today,
      dueDate: due.toISOString().slice(0, 10),
      paymentTermsDays: 30,
      billTo: { name: client.name, address: ["Chicago, IL", "US"], poNumber: null },
      currency: "USD",
      hourlyRate: "150.00",
      subtotal: "600.00",
      taxRatePercent: null,
      tax: "0.00",
      total: "600.00",
      status: "issued",
      corrects: null,
      issuedBy: { username: team.billing.username },
    });
    expect(invoice.lines).toEqual([
      {
        caseId: subject.id,
        caseNumber: subject.caseNumber,
        patientName: null,
        serviceFrom: "2026-06-10",
        serviceTo: "2026-06-14",
        hours: "4.00",
        hourlyRate: "150.00",
        amount: "600.00",
        cptSummary: expect.stringMatching(/^(\d{5} ×\d+(, )?)+$|^—$/),
      },
    ]);

    const pdf = await team.billing("GET", `${invoicesBase}/${invoice.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers["content-type"]).toContain("application/pdf");
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    expect(createHash("sha256").update(pdf.rawPayload).digest("hex")).toBe(invoice.pdfSha256);
    const again = await team.billing("GET", `${invoicesBase}/${invoice.id}/pdf`);
    expect(Buffer.compare(again.rawPayload, pdf.rawPayload)).toBe(0);
    // The text a reader extracts names the invoice; the patient is not on it.
    const [stored] = await harness.database.db.select().from(invoices).where(eq(invoices.id, invoice.id));
    expect(stored?.pdf.equals(pdf.rawPayload)).toBe(true);

    const audits = await auditRows(harness, "billing.invoice.issued", invoice.id);
    expect(audits).toHaveLength(1);
    expect(audits[0]?.details).toMatchObject({ number: invoice.number, total: "600.00", pdfSha256: invoice.pdfSha256 });

    // The statement names its invoice, on a repeated issue and when read.
    expect((await issueJune(client.id)).invoice).toEqual(statement.invoice);
    expect(await harness.database.db.select().from(invoices).where(eq(invoices.clientId, client.id))).toHaveLength(1);
  });

  it("follows the client's profile: legal name, PO number, terms, tax and patient names", async () => {
    const { client } = await billedJune("America/Chicago");
    const saved = await setProfile(client.id, {
      legalName: "Riverside General Hospital, Inc.",
      poNumber: "PO-77812",
      paymentTermsDays: 45,
      taxRatePercent: "8.875",
      showPatientNames: true,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toMatchObject({ version: 1, taxRatePercent: "8.875", paymentTermsDays: 45 });
    const statement = await issueJune(client.id);
    const invoice = await invoiceOf(statement.invoice?.id as string);
    const today = todayIn("America/Chicago", new Date());
    const due = new Date(`${today}T00:00:00Z`);
    due.setUTCDate(due.getUTCDate() + 45);
    expect(invoice).toMatchObject({
      issueDate: today,
      dueDate: due.toISOString().slice(0, 10),
      paymentTermsDays: 45,
      billTo: { name: "Riverside General Hospital, Inc.", poNumber: "PO-77812" },
      subtotal: "600.00",
      taxRatePercent: "8.875",
      // 600.00 × 8.875 % = 53.25 exactly.
      tax: "53.25",
      total: "653.25",
    });
    expect(invoice.lines[0]?.patientName).toBe(statement.lines[0]?.patientName);

    // A later profile change leaves the issued invoice as it was.
    expect((await setProfile(client.id, { taxRatePercent: null, legalName: null })).statusCode).toBe(200);
    expect(await invoiceOf(invoice.id)).toEqual(invoice);
  });

  it("refuses a stale profile and bad terms, and callers without billing permissions", async () => {
    const client = await clientIn(team, "UTC");
    expect((await setProfile(client.id, { paymentTermsDays: 60 })).statusCode).toBe(200);
    const stale = await team.billing("PUT", profilePath(client.id), {
      body: {
        legalName: null,
        poNumber: null,
        paymentTermsDays: 10,
        taxRatePercent: null,
        showPatientNames: false,
        baseVersion: null,
      },
    });
    expect(stale.statusCode).toBe(409);
    const badTax = await setProfile(client.id, { taxRatePercent: "8.12345" });
    expect(badTax.statusCode).toBe(400);
    const badTerms = await setProfile(client.id, { paymentTermsDays: -1 });
    expect(badTerms.statusCode).toBe(400);
    expect((await team.technologist("GET", profilePath(client.id))).statusCode).toBe(403);
    expect((await team.technologist("GET", invoicesBase)).statusCode).toBe(403);
    expect((await team.billing("GET", profilePath(unknownId))).statusCode).toBe(404);
    expect((await team.billing("GET", `${invoicesBase}/${unknownId}`)).statusCode).toBe(404);
    expect((await team.billing("GET", `${invoicesBase}/${unknownId}/pdf`)).statusCode).toBe(404);
  });
});

describe("invoice numbers", () => {
  it("are gapless per series and year: a rolled-back issue gives its number back", async () => {
    const db = harness.database.db;
    const year = Number(todayIn("UTC", new Date()).slice(0, 4));
    const first = await billedJune();
    const before = await issueJune(first.client.id);
    const sequenceOf = (number: string | undefined) => Number(number?.split("-")[2]);

    // A transaction that takes a number and fails leaves the counter where it was.
    await expect(
      db.transaction(async (tx) => {
        await takeDocumentNumber(tx, "INV", year);
        throw new Error("the issue failed after taking its number");
      }),
    ).rejects.toThrow("the issue failed");
    const second = await billedJune();
    const after = await issueJune(second.client.id);
    expect(sequenceOf(after.invoice?.number)).toBe(sequenceOf(before.invoice?.number) + 1);

    const [counter] = await db.select().from(billingDocumentCounters).where(eq(billingDocumentCounters.series, "INV"));
    const numbers = (await db.select({ sequence: invoices.sequence }).from(invoices).where(eq(invoices.year, year)))
      .map((row) => row.sequence)
      .sort((left, right) => left - right);
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, index) => index + 1));
    expect(counter?.lastNumber).toBe(numbers.length);
  });

  it("stay gapless when transactions take them at once and some roll back", async () => {
    const db = harness.database.db;
    const series = `T${Date.now().toString(36)}`;
    const attempts = Array.from({ length: 12 }, (_, index) => index);
    const results = await Promise.allSettled(
      attempts.map((index) =>
        db.transaction(async (tx) => {
          const number = await takeDocumentNumber(tx, series, 2026);
          // Hold the number a moment so the others queue behind this one's lock (on PostgreSQL).
          await tx.execute(sql`select pg_sleep(0.02)`);
          if (index % 3 === 0) throw new Error(`attempt ${index} fails after taking ${number}`);
          return number;
        }),
      ),
    );
    const kept = results
      .flatMap((result) => (result.status === "fulfilled" ? [result.value] : []))
      .sort((left, right) => left - right);
    expect(results.filter((result) => result.status === "rejected")).toHaveLength(4);
    expect(kept).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const [counter] = await db.select().from(billingDocumentCounters).where(eq(billingDocumentCounters.series, series));
    expect(counter?.lastNumber).toBe(8);
  });

  it("stay gapless when several months are issued at once", async () => {
    const db = harness.database.db;
    const year = Number(todayIn("UTC", new Date()).slice(0, 4));
    const clients = await Promise.all(Array.from({ length: 6 }, () => billedJune()));
    const answers = await Promise.all(clients.map(({ client }) => issueStatement(team.billing, client.id, "2026-06")));
    expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 201));
    const numbers = (await db.select({ sequence: invoices.sequence }).from(invoices).where(eq(invoices.year, year)))
      .map((row) => row.sequence)
      .sort((left, right) => left - right);
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, index) => index + 1));
  });
});

describe("an issued invoice", () => {
  it("cannot be changed or deleted in the database", async () => {
    const { client } = await billedJune();
    const statement = await issueJune(client.id);
    const id = statement.invoice?.id as string;
    const db = harness.database.db;
    await expect(db.update(invoices).set({ total: "1.00" }).where(eq(invoices.id, id))).rejects.toThrow();
    await expect(
      db.update(invoiceLines).set({ amount: "1.00" }).where(eq(invoiceLines.invoiceId, id)),
    ).rejects.toThrow();
    await expect(db.delete(invoiceLines).where(eq(invoiceLines.invoiceId, id))).rejects.toThrow();
    await expect(db.delete(invoices).where(eq(invoices.id, id))).rejects.toThrow();
    expect((await invoiceOf(id)).total).toBe("600.00");
  });
});

describe("the invoices list", () => {
  it("pages newest first, filters by client, status and issue dates, and exports the same rows as CSV", async () => {
    const { client } = await billedJune();
    const other = await billedJune();
    const mine = await issueJune(client.id);
    await issueJune(other.client.id);

    const page = await team.billing("GET", `${invoicesBase}?clientId=${client.id}&limit=10`);
    expect(page.statusCode, page.body).toBe(200);
    const data: InvoicePage = page.json().data;
    expect(data.total).toBe(1);
    expect(data.items.map((item) => item.number)).toEqual([mine.invoice?.number]);
    expect(data.totals).toEqual([{ currency: "USD", total: "600.00" }]);

    const all: InvoicePage = (await team.billing("GET", `${invoicesBase}?limit=2`)).json().data;
    expect(all.items).toHaveLength(2);
    expect(all.total).toBeGreaterThanOrEqual(2);
    const numbers = all.items.map((item) => item.number);
    expect([...numbers].sort().reverse()).toEqual(numbers);
    const next: InvoicePage = (await team.billing("GET", `${invoicesBase}?limit=2&offset=2`)).json().data;
    expect(next.items.some((item) => numbers.includes(item.number))).toBe(false);

    const today = todayIn("UTC", new Date());
    const overdue: InvoicePage = (
      await team.billing("GET", `${invoicesBase}?clientId=${client.id}&status=overdue`)
    ).json().data;
    expect(overdue.total).toBe(0);
    const dated: InvoicePage = (
      await team.billing("GET", `${invoicesBase}?clientId=${client.id}&from=${today}&to=${today}&status=issued`)
    ).json().data;
    expect(dated.total).toBe(1);
    const before: InvoicePage = (
      await team.billing("GET", `${invoicesBase}?clientId=${client.id}&to=2020-01-01`)
    ).json().data;
    expect(before.total).toBe(0);
    expect((await team.billing("GET", `${invoicesBase}?from=2026-02-01&to=2026-01-01`)).statusCode).toBe(400);

    const csv = await team.billing("GET", `${invoicesBase}/export?clientId=${client.id}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-type"]).toContain("text/csv");
    const [header, row, end] = csv.body.split("\r\n");
    expect(header).toBe("number,kind,client,month,issue_date,due_date,currency,subtotal,tax,total,status,corrects");
    expect(row).toBe(
      [
        mine.invoice?.number,
        "invoice",
        client.name,
        "2026-06",
        today,
        data.items[0]?.dueDate,
        "USD",
        "600.00",
        "0.00",
        "600.00",
        "issued",
        "",
      ].join(","),
    );
    expect(end).toBe("");
  });
});

describe("correcting an issued invoice", () => {
  async function etagOf(clientId: string): Promise<{ etag: string; data: BillingStatement }> {
    const response = await team.billing("GET", `${billingBase}/${clientId}/2026-06`);
    expect(response.statusCode, response.body).toBe(200);
    return { etag: String(response.headers.etag), data: response.json().data };
  }

  function adjust(clientId: string, etag: string | undefined, reason: string | undefined) {
    return team.billing("POST", `${billingBase}/${clientId}/2026-06/adjustment`, {
      ...(etag ? { ifMatch: etag } : {}),
      body: reason === undefined ? {} : { reason },
    });
  }

  it("bills more on a supplementary invoice and less on a credit note, each once, referring to the invoice", async () => {
    const { client, subject } = await billedJune();
    const before = await etagOf(client.id);
    expect((await adjust(client.id, before.etag, "Too early")).statusCode).toBe(409);
    const statement = await issueJune(client.id);
    const original = await invoiceOf(statement.invoice?.id as string);

    // Two more hours logged after the invoice: 300.00 more to bill.
    await logTime(team.technologist, subject.id, "2026-06-20T08:00:00.000Z", "2026-06-20T10:00:00.000Z");
    const grown = await etagOf(client.id);
    expect(grown.data.changesSinceIssue).toMatchObject({ hours: "2.00", amount: "300.00" });
    expect((await adjust(client.id, grown.etag, "")).statusCode).toBe(400);
    expect((await adjust(client.id, undefined, "Late log")).statusCode).toBe(428);
    expect((await adjust(client.id, before.etag, "Late log")).statusCode).toBe(412);

    const supplementary = await adjust(client.id, grown.etag, "Two hours logged after the invoice");
    expect(supplementary.statusCode, supplementary.body).toBe(201);
    const more: Invoice = supplementary.json().data;
    expect(more).toMatchObject({
      kind: "supplementary",
      number: expect.stringMatching(/^INV-\d{4}-\d{5}$/),
      corrects: { id: original.id, number: original.number },
      reason: "Two hours logged after the invoice",
      statementId: statement.id,
      billTo: original.billTo,
      subtotal: "300.00",
      total: "300.00",
    });
    expect(more.lines).toEqual([
      expect.objectContaining({ caseId: subject.id, hours: "2.00", amount: "300.00", patientName: null }),
    ]);
    const carried = await etagOf(client.id);
    expect(carried.data.changesSinceIssue).toMatchObject({ lines: [], amount: "0.00" });
    expect(carried.data.adjustments).toEqual([
      expect.objectContaining({ id: more.id, kind: "supplementary", number: more.number, total: "300.00" }),
    ]);
    // Carried once: nothing left to carry.
    const again = await adjust(client.id, carried.etag, "Twice");
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toContain("nothing to carry");

    // June re-priced at 100.00: 6 h now come to 600.00, 300.00 less than billed.
    const rerated = await setRate(team.billing, client.id, "2026-06", "100", {
      baseVersion: 1,
      reason: "Contract amendment",
    });
    expect(rerated.statusCode, rerated.body).toBe(200);
    const lower = await etagOf(client.id);
    expect(lower.data.changesSinceIssue).toMatchObject({ amount: "-300.00" });
    const credit = await adjust(client.id, lower.etag, "Contract amendment: June at 100.00");
    expect(credit.statusCode, credit.body).toBe(201);
    const less: Invoice = credit.json().data;
    expect(less).toMatchObject({
      kind: "credit-note",
      number: expect.stringMatching(/^CN-\d{4}-\d{5}$/),
      corrects: { number: original.number },
      hourlyRate: "100.00",
      subtotal: "300.00",
      total: "300.00",
    });
    expect(less.lines).toEqual([expect.objectContaining({ hours: "0.00", amount: "300.00" })]);
    expect((await etagOf(client.id)).data.changesSinceIssue).toMatchObject({ lines: [], amount: "0.00" });
    const audits = await auditRows(harness, "billing.credit-note.issued", less.id);
    expect(audits[0]?.details).toMatchObject({
      corrects: original.number,
      reason: "Contract amendment: June at 100.00",
    });

    // The list names what each corrects; the PDF is kept like an invoice's.
    const listed: InvoicePage = (await team.billing("GET", `${invoicesBase}?clientId=${client.id}`)).json().data;
    expect(listed.items.map((item) => [item.kind, item.corrects?.number ?? null]).sort()).toEqual(
      [
        ["credit-note", original.number],
        ["invoice", null],
        ["supplementary", original.number],
      ].sort(),
    );
    expect(listed.totals).toEqual([{ currency: "USD", total: "600.00" }]);
    const pdf = await team.billing("GET", `${invoicesBase}/${less.id}/pdf`);
    expect(createHash("sha256").update(pdf.rawPayload).digest("hex")).toBe(less.pdfSha256);
    const db = harness.database.db;
    await expect(db.update(invoices).set({ reason: "edited" }).where(eq(invoices.id, less.id))).rejects.toThrow();
  });

  it("refuses callers without billing:write", async () => {
    const { client } = await billedJune();
    await issueJune(client.id);
    const { etag } = await etagOf(client.id);
    const refused = await team.technologist("POST", `${billingBase}/${client.id}/2026-06/adjustment`, {
      ifMatch: etag,
      body: { reason: "No" },
    });
    expect(refused.statusCode).toBe(403);
  });
});
