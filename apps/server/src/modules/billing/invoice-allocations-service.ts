import type { InvoiceAllocationEntry, InvoiceAllocations } from "@vigil/contract";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import { moneyOfCents } from "./billing-money.js";
import { findInvoiceApplications, findInvoiceHeading } from "./payments-repository.js";

type Entry = Omit<InvoiceAllocationEntry, "amount" | "amountDue"> & { cents: number; order: number };

/**
 * `GET /billing/invoices/{id}/allocations` (BILLING.md "Payments and receivables"): every entry that changed what is
 * due on an invoice, by the date it applies from, then the order it was recorded, with the amount due after each.
 * The same entries the status rule sums (`invoice-status.ts`), so the last amount due is the invoice's `open` as of
 * its last entry. A credit note is owed to the client: nothing is applied to it and nothing is due on it.
 */
export async function listInvoiceAllocations(db: Db, invoiceId: string): Promise<InvoiceAllocations> {
  const invoice = await findInvoiceHeading(db, invoiceId);
  if (!invoice) throw new AppError("not_found", `No invoice with id ${invoiceId}.`);
  const { allocations, creditNotes, writeOffs } = await findInvoiceApplications(db, invoiceId);
  const entries: Entry[] = [
    ...allocations.map(({ allocation, payment }) => ({
      kind: allocation.amountCents < 0 ? ("allocation-reversal" as const) : ("allocation" as const),
      date: allocation.allocatedOn,
      payment: {
        id: payment.id,
        receivedOn: payment.receivedOn,
        payer: payment.payer,
        method: payment.method,
        reference: payment.reference,
      },
      document: null,
      cents: allocation.amountCents,
      reason: allocation.reason,
      recordedAt: allocation.recordedAt.toISOString(),
      order: 1,
    })),
    ...creditNotes.map((note) => ({
      kind: "credit-note" as const,
      date: note.issueDate,
      payment: null,
      document: note.number,
      cents: note.totalCents,
      reason: note.reason,
      recordedAt: note.issuedAt.toISOString(),
      order: 0,
    })),
    ...writeOffs.map((writeOff) => ({
      kind: "write-off" as const,
      date: writeOff.writtenOffOn,
      payment: null,
      document: null,
      cents: writeOff.amountCents,
      reason: writeOff.reason,
      recordedAt: writeOff.recordedAt.toISOString(),
      order: 2,
    })),
  ].sort(
    (left, right) =>
      left.date.localeCompare(right.date) ||
      left.recordedAt.localeCompare(right.recordedAt) ||
      left.order - right.order,
  );
  const owed = invoice.kind === "credit-note" ? 0 : invoice.totalCents;
  let due = owed;
  return {
    invoiceId: invoice.id,
    number: invoice.number,
    currency: invoice.currency,
    total: moneyOfCents(invoice.totalCents),
    entries: entries.map(({ cents, order: _order, ...entry }) => {
      due -= cents;
      return { amount: moneyOfCents(cents), amountDue: moneyOfCents(due), ...entry };
    }),
    amountDue: moneyOfCents(due),
  };
}
