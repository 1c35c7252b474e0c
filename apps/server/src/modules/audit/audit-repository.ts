import { and, desc, eq, gte, lt, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { auditEvents } from "../../db/schema.js";

export type AuditEventRow = typeof auditEvents.$inferSelect;

export type AuditFilter = {
  /** The actor's username, case-insensitive. */
  actorUsername?: string | undefined;
  action?: string | undefined;
  targetType?: string | undefined;
  targetId?: string | undefined;
  outcome?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
};

export async function insertAuditEvent(db: Db, row: typeof auditEvents.$inferInsert): Promise<void> {
  await db.insert(auditEvents).values(row);
}

/** One page of audit events matching the filter, newest first, and how many match in all. */
export async function listAuditEvents(
  db: Db,
  filter: AuditFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: AuditEventRow[]; total: number }> {
  const conditions: SQL[] = [];
  if (filter.actorUsername) {
    conditions.push(sql`lower(${auditEvents.actorUsername}) = ${filter.actorUsername.toLowerCase()}`);
  }
  if (filter.action) conditions.push(eq(auditEvents.action, filter.action));
  if (filter.targetType) conditions.push(eq(auditEvents.targetType, filter.targetType));
  if (filter.targetId) conditions.push(eq(auditEvents.targetId, filter.targetId));
  if (filter.outcome) conditions.push(eq(auditEvents.outcome, filter.outcome));
  if (filter.from) conditions.push(gte(auditEvents.at, filter.from));
  if (filter.to) conditions.push(lt(auditEvents.at, filter.to));
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const rows = await db
    .select()
    .from(auditEvents)
    .where(where)
    .orderBy(desc(auditEvents.at), desc(auditEvents.id))
    .limit(page.limit)
    .offset(page.offset);
  const [count] = await db.select({ total: sql<number>`count(*)::int` }).from(auditEvents).where(where);
  return { rows, total: count?.total ?? 0 };
}
