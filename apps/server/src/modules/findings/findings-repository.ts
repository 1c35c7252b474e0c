import { and, asc, desc, eq, inArray, lte, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { criticalFindings, findingDeliveries, findingRecipients } from "../../db/schema.js";
import { mayHaveBeenSentReason, uncertainErrorPattern } from "./finding-deliveries-repository.js";

export type FindingRow = typeof criticalFindings.$inferSelect;
export type FindingValues = typeof criticalFindings.$inferInsert;
export type RecipientRow = typeof findingRecipients.$inferSelect;
export type RecipientValues = typeof findingRecipients.$inferInsert;
export type DeliveryRow = typeof findingDeliveries.$inferSelect;
export type DeliveryValues = typeof findingDeliveries.$inferInsert;

export async function insertFinding(tx: Db, values: FindingValues): Promise<FindingRow> {
  const [row] = await tx.insert(criticalFindings).values(values).returning();
  return row as FindingRow;
}

/** A case's findings, newest first. */
export async function findFindingsOfCase(db: Db, caseId: string): Promise<FindingRow[]> {
  return db
    .select()
    .from(criticalFindings)
    .where(eq(criticalFindings.caseId, caseId))
    .orderBy(desc(criticalFindings.raisedAt), desc(criticalFindings.id));
}

/** One finding (of that case, when given), locked FOR UPDATE when asked. */
export async function findFinding(
  db: Db,
  id: string,
  options: { caseId?: string; lock?: "update" } = {},
): Promise<FindingRow | undefined> {
  const conditions = [eq(criticalFindings.id, id)];
  if (options.caseId) conditions.push(eq(criticalFindings.caseId, options.caseId));
  const query = db
    .select()
    .from(criticalFindings)
    .where(and(...conditions))
    .limit(1);
  const [row] = options.lock ? await query.for(options.lock) : await query;
  return row;
}

export async function updateFinding(tx: Db, id: string, values: Partial<FindingValues>): Promise<FindingRow> {
  const [row] = await tx.update(criticalFindings).set(values).where(eq(criticalFindings.id, id)).returning();
  return row as FindingRow;
}

/**
 * The open finding whose escalation has waited longest, if one is due at `now`, locked FOR UPDATE SKIP LOCKED: an
 * instance escalating another finding is not waited for, and two instances never take the same one.
 */
export async function claimDueEscalation(tx: Db, now: Date): Promise<FindingRow | undefined> {
  const [row] = await tx
    .select()
    .from(criticalFindings)
    .where(and(eq(criticalFindings.status, "open"), lte(criticalFindings.nextEscalationAt, now)))
    .orderBy(asc(criticalFindings.nextEscalationAt))
    .limit(1)
    .for("update", { skipLocked: true });
  return row;
}

/**
 * Adds recipients of one level; a person already told at that level (another instance was first) is skipped by the
 * unique index. Answers the rows this call inserted.
 */
export async function insertRecipients(tx: Db, rows: RecipientValues[]): Promise<RecipientRow[]> {
  if (rows.length === 0) return [];
  return tx.insert(findingRecipients).values(rows).onConflictDoNothing().returning();
}

export async function findRecipientsOf(db: Db, findingIds: string[]): Promise<RecipientRow[]> {
  if (findingIds.length === 0) return [];
  return db.select().from(findingRecipients).where(inArray(findingRecipients.findingId, findingIds)).orderBy(
    asc(findingRecipients.level),
    // At one level: the contact, then the reviewer, then the coordinators (the order they are told in).
    sql`case ${findingRecipients.kind} when 'contact' then 0 when 'reviewer' then 1 else 2 end`,
    asc(findingRecipients.name),
    asc(findingRecipients.id),
  );
}

export async function findRecipient(db: Db, id: string, lock?: "update"): Promise<RecipientRow | undefined> {
  const query = db.select().from(findingRecipients).where(eq(findingRecipients.id, id)).limit(1);
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}

export async function markLinkUsed(tx: Db, recipientId: string, at: Date): Promise<void> {
  await tx.update(findingRecipients).set({ linkUsedAt: at }).where(eq(findingRecipients.id, recipientId));
}

export async function insertDeliveries(tx: Db, rows: DeliveryValues[]): Promise<void> {
  if (rows.length > 0) await tx.insert(findingDeliveries).values(rows);
}

export async function findDeliveriesOf(db: Db, findingIds: string[]): Promise<DeliveryRow[]> {
  if (findingIds.length === 0) return [];
  return db
    .select()
    .from(findingDeliveries)
    .where(inArray(findingDeliveries.findingId, findingIds))
    .orderBy(asc(findingDeliveries.createdAt), asc(findingDeliveries.channel), asc(findingDeliveries.id));
}

/**
 * A closed finding's notices still waiting (never tried, or waiting for a retry) are not sent: marked `not-needed`
 * with `reason`, so the finding shows what never went out and why — and no one reads it as a transport's failure.
 */
export async function setAsideWaitingNotices(tx: Db, findingId: string, reason: string, at: Date): Promise<number> {
  // A notice whose last try timed out may have reached its recipient: it is never recorded as not sent.
  await tx
    .update(findingDeliveries)
    .set({ status: "may-have-been-sent", lastError: mayHaveBeenSentReason, nextAttemptAt: at, leaseUntil: null })
    .where(
      and(
        eq(findingDeliveries.findingId, findingId),
        eq(findingDeliveries.status, "pending"),
        eq(findingDeliveries.purpose, "notice"),
        sql`${findingDeliveries.attempts} > 0 and ${findingDeliveries.lastError} ~* ${uncertainErrorPattern}`,
      ),
    );
  const rows = await tx
    .update(findingDeliveries)
    .set({ status: "not-needed", lastError: reason, nextAttemptAt: at, leaseUntil: null })
    .where(
      and(
        eq(findingDeliveries.findingId, findingId),
        eq(findingDeliveries.status, "pending"),
        eq(findingDeliveries.purpose, "notice"),
      ),
    )
    .returning({ id: findingDeliveries.id });
  return rows.length;
}

/**
 * The notices of a finding that left Vigil, or may have: who was (or may have been) told, over which channel and to
 * where. A cancellation goes to both, since a word it was cancelled harms no one who never got the finding.
 */
export async function findSentNotices(tx: Db, findingId: string): Promise<DeliveryRow[]> {
  return tx
    .select()
    .from(findingDeliveries)
    .where(
      and(
        eq(findingDeliveries.findingId, findingId),
        inArray(findingDeliveries.status, ["sent", "may-have-been-sent"]),
        eq(findingDeliveries.purpose, "notice"),
      ),
    )
    .orderBy(asc(findingDeliveries.createdAt), asc(findingDeliveries.id));
}
