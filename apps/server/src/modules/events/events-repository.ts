import { and, asc, desc, eq, gt, gte, lt, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { caseEvents } from "../../db/schema.js";

export type CaseEventRow = typeof caseEvents.$inferSelect;

export async function findNewestEventId(db: Db): Promise<number | undefined> {
  const [row] = await db.select({ id: caseEvents.id }).from(caseEvents).orderBy(desc(caseEvents.id)).limit(1);
  return row?.id;
}

export async function findOldestEventId(db: Db): Promise<number | undefined> {
  const [row] = await db.select({ id: caseEvents.id }).from(caseEvents).orderBy(asc(caseEvents.id)).limit(1);
  return row?.id;
}

export async function findEvent(db: Db, id: number): Promise<CaseEventRow | undefined> {
  const [row] = await db.select().from(caseEvents).where(eq(caseEvents.id, id));
  return row;
}

/**
 * The events after `after`, plus those with a smaller id written within `overlapSeconds` before it: ids are taken
 * when a write inserts its row, not when it commits, so a short transaction can commit a higher id before a longer
 * one commits a lower. Replaying both is harmless (screens re-read), missing one is not. At most `limit` rows.
 */
export async function listEventsAfter(
  db: Db,
  after: CaseEventRow,
  overlapSeconds: number,
  limit: number,
): Promise<CaseEventRow[]> {
  return db
    .select()
    .from(caseEvents)
    .where(
      or(
        gt(caseEvents.id, after.id),
        and(
          lt(caseEvents.id, after.id),
          gte(caseEvents.at, sql`${after.at.toISOString()}::timestamptz - make_interval(secs => ${overlapSeconds})`),
        ),
      ),
    )
    .orderBy(asc(caseEvents.id))
    .limit(limit);
}

/** Forgets events older than a day: a stream that was away longer re-reads everything instead. */
export async function deleteEventsBefore(db: Db, cutoff: Date): Promise<number> {
  const deleted = await db.delete(caseEvents).where(lt(caseEvents.at, cutoff)).returning({ id: caseEvents.id });
  return deleted.length;
}
