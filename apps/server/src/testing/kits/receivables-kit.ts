import type { InvoiceKind } from "@vigil/contract";
import type { Db } from "../../db/client.js";
import { moneyOfCents } from "../../modules/billing/billing-money.js";
import { insertInvoice, takeDocumentNumber } from "../../modules/billing/invoices-repository.js";
import { invoiceNumberOf, invoiceSeries } from "../../modules/billing/invoices-service.js";

/**
 * Invoices for the receivables tests, numbered by the real counter (`takeDocumentNumber`) and stored by the real
 * repository, without the statement and PDF rendering that `invoices.test.ts` covers: a ledger test issues tens
 * of documents and is about the money after issue, not the document.
 */
export async function insertLedgerInvoice(
  db: Db,
  input: {
    clientId: string;
    totalCents: number;
    issueDate: string;
    dueDate: string;
    kind?: InvoiceKind;
    correctsInvoiceId?: string | null;
  },
): Promise<{ id: string; number: string }> {
  const kind = input.kind ?? "invoice";
  return db.transaction(async (tx) => {
    const series = invoiceSeries[kind];
    const year = Number(input.issueDate.slice(0, 4));
    const sequence = await takeDocumentNumber(tx, series, year);
    const number = invoiceNumberOf(series, year, sequence);
    const total = moneyOfCents(input.totalCents);
    const { invoice } = await insertInvoice(
      tx,
      {
        kind,
        series,
        year,
        sequence,
        number,
        clientId: input.clientId,
        correctsInvoiceId: input.correctsInvoiceId ?? null,
        reason: kind === "invoice" ? null : "Ledger test correction",
        month: input.issueDate.slice(0, 7),
        issueDate: input.issueDate,
        dueDate: input.dueDate,
        paymentTermsDays: 30,
        billToName: "Ledger test hospital",
        billToAddress: [],
        currency: "USD",
        hourlyRate: "100.00",
        subtotal: total,
        taxAmount: "0.00",
        total,
        showsPatientNames: false,
        pdf: Buffer.from("%PDF-1.7 ledger test"),
        pdfSha256: "0".repeat(64),
        issuedAt: new Date(`${input.issueDate}T12:00:00Z`),
        issuedByUsername: "ledger-test",
      },
      [],
    );
    return { id: invoice.id, number: invoice.number };
  });
}
