import { and, asc, desc, eq, gte, inArray, lte } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import {
  billingExportAccounts,
  billingExports,
  clients,
  invoiceLines,
  invoices,
  paymentReversals,
  payments,
} from "../../db/schema.js";

/** The exports for the accountant: the account mapping, a period's documents, and the export history. */

export type ExportAccountsRow = typeof billingExportAccounts.$inferSelect;
export type ExportRow = typeof billingExports.$inferSelect;

export async function findExportAccounts(db: Db): Promise<ExportAccountsRow | undefined> {
  const [row] = await db.select().from(billingExportAccounts).limit(1);
  return row;
}

/** Creates or replaces the mapping when `baseVersion` is the stored one (null: none stored); undefined otherwise. */
export async function saveExportAccounts(
  db: Db,
  values: Omit<ExportAccountsRow, "company" | "version" | "updatedAt">,
  baseVersion: number | null,
): Promise<ExportAccountsRow | undefined> {
  if (baseVersion === null) {
    const [row] = await db.insert(billingExportAccounts).values(values).onConflictDoNothing().returning();
    return row;
  }
  const [row] = await db
    .update(billingExportAccounts)
    .set({ version: baseVersion + 1, updatedAt: new Date(), ...values })
    .where(and(eq(billingExportAccounts.company, "company"), eq(billingExportAccounts.version, baseVersion)))
    .returning();
  return row;
}

/** Invoices, supplementary invoices and credit notes issued in [from, to], oldest first, with their lines. */
export async function findDocumentsIssued(db: Db, from: string, to: string) {
  const rows = await db
    .select({
      id: invoices.id,
      kind: invoices.kind,
      number: invoices.number,
      clientName: clients.name,
      billToName: invoices.billToName,
      issueDate: invoices.issueDate,
      dueDate: invoices.dueDate,
      paymentTermsDays: invoices.paymentTermsDays,
      poNumber: invoices.poNumber,
      month: invoices.month,
      currency: invoices.currency,
      taxAmount: invoices.taxAmount,
      total: invoices.total,
      correctsInvoiceId: invoices.correctsInvoiceId,
    })
    .from(invoices)
    .innerJoin(clients, eq(clients.id, invoices.clientId))
    .where(and(gte(invoices.issueDate, from), lte(invoices.issueDate, to)))
    .orderBy(asc(invoices.issueDate), asc(invoices.number));
  const lines =
    rows.length === 0
      ? []
      : await db
          .select()
          .from(invoiceLines)
          .where(
            inArray(
              invoiceLines.invoiceId,
              rows.map((row) => row.id),
            ),
          )
          .orderBy(asc(invoiceLines.invoiceId), asc(invoiceLines.position));
  const numbers = new Map(rows.map((row) => [row.id, row.number]));
  return rows.map((row) => ({
    correctsNumber: row.correctsInvoiceId ? (numbers.get(row.correctsInvoiceId) ?? null) : null,
    lines: lines.filter((line) => line.invoiceId === row.id),
    ...row,
  }));
}

export type ExportedDocument = Awaited<ReturnType<typeof findDocumentsIssued>>[number];

/** Payments received in [from, to] and reversals of payments made in it (receivables ledger, `payments*`). */
export async function findPaymentsIn(db: Db, from: string, to: string) {
  const received = await db
    .select({
      id: payments.id,
      clientName: clients.name,
      onDate: payments.receivedOn,
      amountCents: payments.amountCents,
      currency: payments.currency,
      reference: payments.reference,
    })
    .from(payments)
    .innerJoin(clients, eq(clients.id, payments.clientId))
    .where(and(gte(payments.receivedOn, from), lte(payments.receivedOn, to)))
    .orderBy(asc(payments.receivedOn), asc(payments.id));
  const reversed = await db
    .select({
      id: paymentReversals.id,
      clientName: clients.name,
      onDate: paymentReversals.reversedOn,
      amountCents: payments.amountCents,
      currency: payments.currency,
      reference: payments.reference,
    })
    .from(paymentReversals)
    .innerJoin(payments, eq(payments.id, paymentReversals.paymentId))
    .innerJoin(clients, eq(clients.id, payments.clientId))
    .where(and(gte(paymentReversals.reversedOn, from), lte(paymentReversals.reversedOn, to)))
    .orderBy(asc(paymentReversals.reversedOn), asc(paymentReversals.id));
  return { received, reversed };
}

export type ExportedPayment = Awaited<ReturnType<typeof findPaymentsIn>>["received"][number];

export async function insertExport(db: Db, values: typeof billingExports.$inferInsert): Promise<ExportRow> {
  const [row] = await db.insert(billingExports).values(values).returning();
  return row as ExportRow;
}

/** The latest export of the same period and format (what a new one is compared with). */
export async function findLastExport(db: Db, from: string, to: string, format: ExportRow["format"]) {
  const [row] = await db
    .select()
    .from(billingExports)
    .where(and(eq(billingExports.periodFrom, from), eq(billingExports.periodTo, to), eq(billingExports.format, format)))
    .orderBy(desc(billingExports.createdAt), desc(billingExports.id))
    .limit(1);
  return row;
}

export async function listExports(db: Db, limit: number): Promise<ExportRow[]> {
  return db.select().from(billingExports).orderBy(desc(billingExports.createdAt), desc(billingExports.id)).limit(limit);
}
