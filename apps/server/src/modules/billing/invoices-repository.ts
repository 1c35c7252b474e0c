import type { InvoiceStatus } from "@vigil/contract";
import { and, asc, count, desc, eq, gte, inArray, lte, max, min, type SQL, sql, sum } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import {
  billableSecondsDaily,
  billingDocumentCounters,
  clientBillingProfiles,
  clients,
  invoiceLines,
  invoices,
} from "../../db/schema.js";
import { invoiceFiguresSql, invoiceStatusSql } from "./invoice-status.js";

/**
 * Invoices, their lines, the numbering counters and the clients' billing profiles. Invoices and lines are
 * append-only (a trigger refuses UPDATE and DELETE): this module inserts and reads them, nothing else.
 */

export type InvoiceRow = typeof invoices.$inferSelect;
export type InvoiceValues = typeof invoices.$inferInsert;
export type InvoiceLineRow = typeof invoiceLines.$inferSelect;
export type InvoiceLineValues = Omit<typeof invoiceLines.$inferInsert, "invoiceId" | "position">;
export type ProfileRow = typeof clientBillingProfiles.$inferSelect;

/**
 * The next number of a series in a year: the counter row is created at 1 or incremented, and stays locked by the
 * caller's transaction until it ends. Concurrent issues wait for one another; a rollback undoes the increment, so
 * numbers have no gaps.
 */
export async function takeDocumentNumber(tx: Db, series: string, year: number): Promise<number> {
  const [row] = await tx
    .insert(billingDocumentCounters)
    .values({ series, year, lastNumber: 1 })
    .onConflictDoUpdate({
      target: [billingDocumentCounters.series, billingDocumentCounters.year],
      set: { lastNumber: sql`${billingDocumentCounters.lastNumber} + 1` },
    })
    .returning({ lastNumber: billingDocumentCounters.lastNumber });
  return (row as { lastNumber: number }).lastNumber;
}

export async function insertInvoice(
  tx: Db,
  values: InvoiceValues,
  lines: readonly InvoiceLineValues[],
): Promise<{ invoice: InvoiceRow; lines: InvoiceLineRow[] }> {
  const [invoice] = await tx.insert(invoices).values(values).returning();
  const saved = invoice as InvoiceRow;
  const savedLines =
    lines.length === 0
      ? []
      : await tx
          .insert(invoiceLines)
          .values(lines.map((line, index) => ({ invoiceId: saved.id, position: index + 1, ...line })))
          .returning();
  return { invoice: saved, lines: savedLines.sort((left, right) => left.position - right.position) };
}

export type InvoiceWithClient = {
  invoice: InvoiceRow;
  clientName: string;
  correctsNumber: string | null;
  /** Ledger figures as of the read's date (`invoice-status.ts`), from which the status is derived. */
  creditedCents: number;
  allocatedCents: number;
  writtenOffCents: number;
};

/** The columns every invoice read selects: the row, its client's name, what it corrects, its ledger figures. */
function invoiceColumns(asOf: string) {
  const figures = invoiceFiguresSql(asOf);
  return {
    invoice: invoices,
    clientName: clients.name,
    correctsNumber: correctedNumber,
    creditedCents: figures.creditedCents.mapWith(Number),
    allocatedCents: figures.allocatedCents.mapWith(Number),
    writtenOffCents: figures.writtenOffCents.mapWith(Number),
  };
}

const correctedNumber = sql<
  string | null
>`(select c.number from invoices c where c.id = ${invoices.correctsInvoiceId})`;

/** One invoice with its lines in printed order; undefined when there is none with that id. */
export async function findInvoice(
  db: Db,
  id: string,
  asOf = new Date().toISOString().slice(0, 10),
): Promise<(InvoiceWithClient & { lines: InvoiceLineRow[] }) | undefined> {
  const [row] = await db
    .select(invoiceColumns(asOf))
    .from(invoices)
    .innerJoin(clients, eq(clients.id, invoices.clientId))
    .where(eq(invoices.id, id))
    .limit(1);
  if (!row) return undefined;
  const lines = await db
    .select()
    .from(invoiceLines)
    .where(eq(invoiceLines.invoiceId, id))
    .orderBy(asc(invoiceLines.position));
  return { lines, ...row };
}

/** The invoice issued with a statement (kind `invoice`); null when there is none. */
export async function findInvoiceOfStatement(
  db: Db,
  statementId: string,
): Promise<{ id: string; number: string } | null> {
  const [row] = await db
    .select({ id: invoices.id, number: invoices.number })
    .from(invoices)
    .where(and(eq(invoices.statementId, statementId), eq(invoices.kind, "invoice")))
    .limit(1);
  return row ?? null;
}

export type InvoiceFilter = {
  clientId?: string | undefined;
  kind?: InvoiceRow["kind"] | undefined;
  /** Derived status as of `today` (`invoiceStatusSql`). */
  status?: InvoiceStatus | undefined;
  from?: string | undefined;
  to?: string | undefined;
  today: string;
};

function conditionsOf(filter: InvoiceFilter): SQL | undefined {
  return and(
    filter.clientId ? eq(invoices.clientId, filter.clientId) : undefined,
    filter.kind ? eq(invoices.kind, filter.kind) : undefined,
    filter.from ? gte(invoices.issueDate, filter.from) : undefined,
    filter.to ? lte(invoices.issueDate, filter.to) : undefined,
    filter.status ? sql`${invoiceStatusSql(filter.today)} = ${filter.status}` : undefined,
  );
}

/** A page of invoices, newest first, and how many (and how much, per currency) the filter matches. */
export async function listInvoiceRows(
  db: Db,
  filter: InvoiceFilter,
  page: { limit: number; offset: number } | undefined,
): Promise<{ rows: InvoiceWithClient[]; total: number; sums: { currency: string; total: string }[] }> {
  const where = conditionsOf(filter);
  const query = db
    .select(invoiceColumns(filter.today))
    .from(invoices)
    .innerJoin(clients, eq(clients.id, invoices.clientId))
    .where(where)
    .orderBy(desc(invoices.issueDate), desc(invoices.number));
  const rows = page ? await query.limit(page.limit).offset(page.offset) : await query;
  if (!page) return { rows, total: rows.length, sums: [] };
  const [counted, sums] = await Promise.all([
    db.select({ total: count() }).from(invoices).where(where),
    db
      .select({
        currency: invoices.currency,
        // Credit notes are stored with positive amounts; in a sum they count against the client's invoices.
        total: sum(sql`case when ${invoices.kind} = 'credit-note' then -${invoices.total} else ${invoices.total} end`),
      })
      .from(invoices)
      .where(where)
      .groupBy(invoices.currency)
      .orderBy(asc(invoices.currency)),
  ]);
  return {
    rows,
    total: Number(counted[0]?.total ?? 0),
    sums: sums.map((row) => ({ currency: row.currency, total: String(row.total ?? "0") })),
  };
}

/** The first and last day with billable seconds of each case in [firstDay, lastDay] (the client's calendar). */
export async function findServiceDates(
  db: Db,
  clientId: string,
  caseIds: readonly string[],
  firstDay: string,
  lastDay: string,
): Promise<Map<string, { from: string; to: string }>> {
  if (caseIds.length === 0) return new Map();
  const rows = await db
    .select({
      caseId: billableSecondsDaily.caseId,
      from: min(billableSecondsDaily.day),
      to: max(billableSecondsDaily.day),
    })
    .from(billableSecondsDaily)
    .where(
      and(
        eq(billableSecondsDaily.clientId, clientId),
        inArray(billableSecondsDaily.caseId, [...caseIds]),
        gte(billableSecondsDaily.day, firstDay),
        lte(billableSecondsDaily.day, lastDay),
      ),
    )
    .groupBy(billableSecondsDaily.caseId);
  return new Map(
    rows.flatMap((row) => (row.from && row.to ? [[row.caseId, { from: row.from, to: row.to }] as const] : [])),
  );
}

export async function findBillingProfile(db: Db, clientId: string): Promise<ProfileRow | undefined> {
  const [row] = await db
    .select()
    .from(clientBillingProfiles)
    .where(eq(clientBillingProfiles.clientId, clientId))
    .limit(1);
  return row;
}

/** The client's address lines as stored on the client (for "Bill to"). */
export async function findClientAddress(db: Db, clientId: string): Promise<string[]> {
  const [row] = await db
    .select({
      line1: clients.addressLine1,
      line2: clients.addressLine2,
      city: clients.city,
      region: clients.region,
      postalCode: clients.postalCode,
      country: clients.country,
    })
    .from(clients)
    .where(eq(clients.id, clientId))
    .limit(1);
  if (!row) return [];
  const place = [row.city, [row.region, row.postalCode].filter(Boolean).join(" ")].filter(Boolean).join(", ");
  return [row.line1, row.line2, place, row.country].filter((line): line is string => Boolean(line?.trim()));
}

/**
 * Creates or replaces a client's profile when `baseVersion` is the stored one (null: none stored); undefined when
 * someone else changed it first.
 */
export async function saveBillingProfile(
  db: Db,
  values: Omit<ProfileRow, "version" | "updatedAt">,
  baseVersion: number | null,
): Promise<ProfileRow | undefined> {
  if (baseVersion === null) {
    const [row] = await db.insert(clientBillingProfiles).values(values).onConflictDoNothing().returning();
    return row;
  }
  const [row] = await db
    .update(clientBillingProfiles)
    .set({ version: baseVersion + 1, updatedAt: new Date(), ...values })
    .where(and(eq(clientBillingProfiles.clientId, values.clientId), eq(clientBillingProfiles.version, baseVersion)))
    .returning();
  return row;
}

/** The supplementary invoices and credit notes of a statement (oldest first), with their lines. */
export async function findAdjustmentsOfStatement(
  db: Db,
  statementId: string,
): Promise<{ invoice: InvoiceRow; lines: InvoiceLineRow[] }[]> {
  const rows = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.statementId, statementId), sql`${invoices.kind} <> 'invoice'`))
    .orderBy(asc(invoices.issuedAt), asc(invoices.number));
  if (rows.length === 0) return [];
  const lines = await db
    .select()
    .from(invoiceLines)
    .where(
      inArray(
        invoiceLines.invoiceId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(invoiceLines.position));
  return rows.map((invoice) => ({ invoice, lines: lines.filter((line) => line.invoiceId === invoice.id) }));
}
