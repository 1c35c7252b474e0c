import { and, asc, desc, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { cases, clientBillingProfiles, clients, invoiceLines, invoiceSendings, invoices } from "../../db/schema.js";

/** E-mails of invoices (and their reminders) as logged on the invoice: insert, read, record the outcome. */

export type SendingRow = typeof invoiceSendings.$inferSelect;
export type SendingValues = typeof invoiceSendings.$inferInsert;

/** What an e-mail of an invoice needs from it (the stored PDF included), read without its lines. */
export async function findInvoiceToSend(db: Db, invoiceId: string) {
  const [row] = await db
    .select({
      id: invoices.id,
      kind: invoices.kind,
      number: invoices.number,
      clientId: invoices.clientId,
      month: invoices.month,
      issueDate: invoices.issueDate,
      dueDate: invoices.dueDate,
      currency: invoices.currency,
      total: invoices.total,
      issuerName: invoices.issuerName,
      billToName: invoices.billToName,
      pdf: invoices.pdf,
      pdfSha256: invoices.pdfSha256,
      timeZone: clients.timezone,
    })
    .from(invoices)
    .innerJoin(clients, eq(clients.id, invoices.clientId))
    .where(eq(invoices.id, invoiceId))
    .limit(1);
  return row;
}

export type InvoiceToSend = NonNullable<Awaited<ReturnType<typeof findInvoiceToSend>>>;

/** The patients an invoice's lines name (none when its profile left names off), once per case, as it named them. */
export async function findNamedPatients(db: Db, invoiceId: string) {
  const rows = await db
    .selectDistinctOn([invoiceLines.caseId], {
      caseId: invoiceLines.caseId,
      patientName: invoiceLines.patientName,
      patientMrn: cases.patientMrn,
      clientId: cases.clientId,
    })
    .from(invoiceLines)
    .innerJoin(cases, eq(cases.id, invoiceLines.caseId))
    .where(and(eq(invoiceLines.invoiceId, invoiceId), isNotNull(invoiceLines.patientName)))
    .orderBy(asc(invoiceLines.caseId), asc(invoiceLines.position));
  return rows.map((row) => ({
    caseId: row.caseId,
    clientId: row.clientId,
    patientName: row.patientName as string,
    patientMrn: row.patientMrn ?? "",
  }));
}

/** Whom a client's invoices go to, as its profile names them (none without a profile). */
export async function findBillingContactIds(db: Db, clientId: string) {
  const [row] = await db
    .select({
      billingContactIds: clientBillingProfiles.billingContactIds,
      sendOnIssue: clientBillingProfiles.sendOnIssue,
      invoiceDelivery: clientBillingProfiles.invoiceDelivery,
    })
    .from(clientBillingProfiles)
    .where(eq(clientBillingProfiles.clientId, clientId))
    .limit(1);
  return row;
}

/** Inserts a sending; a reminder whose (invoice, days) is already claimed inserts nothing (undefined). */
export async function insertSending(db: Db, values: SendingValues): Promise<SendingRow | undefined> {
  const [row] = await db.insert(invoiceSendings).values(values).onConflictDoNothing().returning();
  return row;
}

export async function findSending(db: Db, id: string): Promise<SendingRow | undefined> {
  const [row] = await db.select().from(invoiceSendings).where(eq(invoiceSendings.id, id)).limit(1);
  return row;
}

export async function listSendingsOf(db: Db, invoiceId: string): Promise<SendingRow[]> {
  return db
    .select()
    .from(invoiceSendings)
    .where(eq(invoiceSendings.invoiceId, invoiceId))
    .orderBy(desc(invoiceSendings.requestedAt), desc(invoiceSendings.id));
}

/** Records a try's outcome on a sending still pending; undefined when another try settled it first. */
export async function settleSending(
  db: Db,
  id: string,
  outcome: Pick<SendingValues, "status" | "lastError" | "attachmentSha256" | "finishedAt">,
): Promise<SendingRow | undefined> {
  const [row] = await db
    .update(invoiceSendings)
    .set(outcome)
    .where(and(eq(invoiceSendings.id, id), inArray(invoiceSendings.status, ["pending"])))
    .returning();
  return row;
}

/** Keeps a refused try's reason on a sending that stays pending (the job tries again). */
export async function setSendingError(db: Db, id: string, lastError: string): Promise<void> {
  await db
    .update(invoiceSendings)
    .set({ lastError })
    .where(and(eq(invoiceSendings.id, id), eq(invoiceSendings.status, "pending")));
}

/** Sets a link's expiry unless a first try set it already; the expiry the sending's link carries either way. */
export async function fixLinkExpiry(db: Db, id: string, expiresAt: Date): Promise<Date> {
  const [row] = await db
    .update(invoiceSendings)
    .set({ linkExpiresAt: sql`coalesce(${invoiceSendings.linkExpiresAt}, ${expiresAt.toISOString()}::timestamptz)` })
    .where(eq(invoiceSendings.id, id))
    .returning({ linkExpiresAt: invoiceSendings.linkExpiresAt });
  return row?.linkExpiresAt ?? expiresAt;
}

/** Spends a sending's link: true for the one call that opened it, false once it was opened already. */
export async function spendSendingLink(db: Db, id: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(invoiceSendings)
    .set({ linkOpenedAt: at })
    .where(and(eq(invoiceSendings.id, id), isNull(invoiceSendings.linkOpenedAt)))
    .returning({ id: invoiceSendings.id });
  return rows.length === 1;
}
