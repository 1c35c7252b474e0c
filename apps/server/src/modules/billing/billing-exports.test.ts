import type { BillingExportFile, Invoice, InvoicePage } from "@vigil/contract";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payments } from "../../db/schema.js";
import {
  billingBase,
  clientIn,
  issueStatement,
  logTime,
  monitoredCase,
  setRate,
} from "../../testing/kits/billing-kit.js";
import { auditRows, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { quickBooksOnlineColumns, xeroColumns } from "./billing-exports-format.js";

let harness: TestApp;
let team: Team;
let invoice: Invoice;
let creditNote: Invoice;
const today = new Date().toISOString().slice(0, 10);
const period = { from: today, to: today };

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "billing-exports");
  // June: 4 h at 150.00 invoiced (600.00), then the rate lowered to 100.00: a credit note of 200.00.
  const client = await clientIn(team, "UTC", "Exports General Hospital");
  const subject = await monitoredCase(harness, team, client.id);
  await logTime(team.technologist, subject.id, "2026-06-10T08:00:00.000Z", "2026-06-10T12:00:00.000Z");
  expect((await setRate(team.billing, client.id, "2026-06", "150")).statusCode).toBe(200);
  expect((await issueStatement(team.billing, client.id, "2026-06")).statusCode).toBe(201);
  const rate = await setRate(team.billing, client.id, "2026-06", "100", { baseVersion: 1, reason: "Contract rate" });
  expect(rate.statusCode, rate.body).toBe(200);
  const read = await team.billing("GET", `${billingBase}/${client.id}/2026-06`);
  const adjusted = await team.billing("POST", `${billingBase}/${client.id}/2026-06/adjustment`, {
    ifMatch: String(read.headers.etag),
    body: { reason: "Contract rate applies" },
  });
  expect(adjusted.statusCode, adjusted.body).toBe(201);
  creditNote = adjusted.json().data;
  const page: InvoicePage = (
    await team.billing("GET", `/api/billing/invoices?clientId=${client.id}&kind=invoice`)
  ).json().data;
  invoice = (await team.billing("GET", `/api/billing/invoices/${page.items[0]?.id}`)).json().data;
  // A payment of 400.00 received today (the receivables ledger's table).
  await harness.database.db.insert(payments).values({
    clientId: client.id,
    receivedOn: today,
    amountCents: 40_000,
    currency: invoice.currency,
    method: "check",
    reference: "CHK-1001",
    payer: "Exports General Hospital",
    recordedByUsername: "test",
  });
}, 90_000);
afterAll(() => harness.close());

async function exportOf(format: string): Promise<BillingExportFile> {
  const response = await team.billing("POST", "/api/billing/exports", { body: { ...period, format } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

/**
 * An IIF reader written apart from the exporter: `!` lines name each record type's columns; every TRNS opens a
 * group that SPL lines add to and ENDTRNS closes. Answers the groups with their amounts in cents.
 */
function readIif(text: string) {
  const columns = new Map<string, string[]>();
  const groups: { type: string; docnum: string; accounts: string[]; cents: number[] }[] = [];
  let open: (typeof groups)[number] | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (line === "") continue;
    const fields = line.split("\t");
    const record = fields[0] as string;
    if (record.startsWith("!")) {
      columns.set(record.slice(1), fields);
      continue;
    }
    const value = (name: string) => fields[(columns.get(record) ?? []).indexOf(name)] ?? "";
    const cents = () => {
      const amount = value("AMOUNT");
      expect(amount).toMatch(/^-?\d+\.\d{2}$/);
      return Math.round(Number(amount) * 100);
    };
    if (record === "TRNS") {
      expect(open).toBeUndefined();
      open = { type: value("TRNSTYPE"), docnum: value("DOCNUM"), accounts: [value("ACCNT")], cents: [cents()] };
    } else if (record === "SPL") {
      expect(open).toBeDefined();
      open?.accounts.push(value("ACCNT"));
      open?.cents.push(cents());
    } else if (record === "ENDTRNS") {
      if (open) groups.push(open);
      open = undefined;
    } else {
      throw new Error(`unknown IIF record ${record}`);
    }
  }
  expect(open).toBeUndefined();
  return groups;
}

describe("exports for the accountant", () => {
  it("writes a QuickBooks IIF whose every transaction balances: invoice, credit memo and payment", async () => {
    const file = await exportOf("iif");
    expect(file.fileName).toMatch(/\.iif$/);
    const groups = readIif(file.content);
    for (const group of groups) expect(group.cents.reduce((sum, cents) => sum + cents, 0)).toBe(0);
    const invoiceGroup = groups.find((group) => group.docnum === invoice.number);
    expect(invoiceGroup).toMatchObject({ type: "INVOICE", accounts: ["Accounts Receivable", "Monitoring Income"] });
    expect(invoiceGroup?.cents[0]).toBe(60_000);
    const creditGroup = groups.find((group) => group.docnum === creditNote.number);
    expect(creditGroup?.type).toBe("CREDIT MEMO");
    expect(creditGroup?.cents[0]).toBe(-20_000);
    const paymentGroup = groups.find((group) => group.type === "PAYMENT");
    expect(paymentGroup).toMatchObject({ docnum: "CHK-1001", accounts: ["Undeposited Funds", "Accounts Receivable"] });
    expect(paymentGroup?.cents).toEqual([40_000, -40_000]);
    expect(file.export.documents.map((document) => document.kind).sort()).toEqual([
      "credit-note",
      "invoice",
      "payment",
    ]);
    expect(file.export.changes).toBeNull();
    expect(await auditRows(harness, "billing.export.created", file.export.id)).toHaveLength(1);
  });

  it("writes the CSVs QuickBooks Online and Xero import, with their column names", async () => {
    const online = await exportOf("quickbooks-online-csv");
    const onlineRows: Record<string, string>[] = parse(online.content, { columns: true });
    expect(Object.keys(onlineRows[0] ?? {})).toEqual([...quickBooksOnlineColumns]);
    expect(onlineRows.map((row) => row.InvoiceNo)).toEqual([invoice.number]);
    expect(onlineRows[0]).toMatchObject({
      Customer: "Exports General Hospital",
      ItemQuantity: "4.00",
      ItemRate: "150.00",
      ItemAmount: "600.00",
      "Item(Product/Service)": "EEG monitoring",
    });
    const xero = await exportOf("xero-csv");
    const xeroRows: Record<string, string>[] = parse(xero.content, { columns: true });
    expect(Object.keys(xeroRows[0] ?? {})).toEqual([...xeroColumns]);
    const byNumber = new Map(xeroRows.map((row) => [row["*InvoiceNumber"], row]));
    expect(byNumber.get(invoice.number)).toMatchObject({ "*Quantity": "4.00", "*UnitAmount": "150.00" });
    // A negative total imports into Xero as a credit note.
    const credit = byNumber.get(creditNote.number);
    expect(Number(credit?.["*Quantity"]) * Number(credit?.["*UnitAmount"])).toBeCloseTo(-200, 2);
    expect(credit?.Reference).toBe(`Corrects ${invoice.number}`);
  });

  it("says what changed since the period's last export, after the accounts are mapped anew", async () => {
    const again = await exportOf("iif");
    expect(again.export.changes).toMatchObject({ added: [], changed: [], removed: [] });
    const accounts = (await team.billing("GET", "/api/billing/export-accounts")).json().data;
    const mapped = await team.billing("PUT", "/api/billing/export-accounts", {
      body: { ...accounts, version: undefined, incomeAccount: "4000 EEG Monitoring", baseVersion: accounts.version },
    });
    expect(mapped.statusCode, mapped.body).toBe(200);
    const stale = await team.billing("PUT", "/api/billing/export-accounts", {
      body: { ...accounts, version: undefined, taxType: "Tax on Sales", baseVersion: accounts.version },
    });
    expect(stale.statusCode).toBe(409);
    const remapped = await exportOf("iif");
    expect(remapped.export.changes?.previousExportId).toBe(again.export.id);
    // The invoice's lines now post to the new income account; the credit memo and payment do not use it.
    expect(remapped.export.changes).toMatchObject({ added: [], changed: [invoice.number], removed: [] });
    expect(readIif(remapped.content).find((group) => group.docnum === invoice.number)?.accounts).toContain(
      "4000 EEG Monitoring",
    );
    const history = (await team.billing("GET", "/api/billing/exports")).json().data.items;
    expect(history[0].id).toBe(remapped.export.id);
  });

  it("refuses an upside-down period and an unknown format with a 400", async () => {
    const upside = await team.billing("POST", "/api/billing/exports", {
      body: { from: "2026-07-01", to: "2026-06-01", format: "iif" },
    });
    expect(upside.statusCode).toBe(400);
    const unknown = await team.billing("POST", "/api/billing/exports", { body: { ...period, format: "sage" } });
    expect(unknown.statusCode).toBe(400);
    expect((await team.technologist("GET", "/api/billing/exports")).statusCode).toBe(403);
  });
});
