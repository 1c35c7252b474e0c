import type { AuditOutcome } from "@vigil/contract";
import { and, desc, eq, gte, lt, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { auditEvents, cases } from "../../db/schema.js";

export type AuditEventRow = typeof auditEvents.$inferSelect;

export type AuditFilter = {
  /** The actor's username, case-insensitive. */
  actorUsername?: string | undefined;
  action?: string | undefined;
  targetType?: string | undefined;
  targetId?: string | undefined;
  /** Events about one case: targeting it, or naming it in `details.caseId`. */
  caseId?: string | undefined;
  /** Events about one client: its own, those naming it in `details.clientId`, and those about its cases. */
  clientId?: string | undefined;
  outcome?: AuditOutcome | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
};

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
  if (filter.caseId) conditions.push(aboutCase(filter.caseId));
  if (filter.clientId) conditions.push(aboutClient(filter.clientId));
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

/*
 * Case and record writes, and the patient-data audit of every case route (reads included), target the case
 * itself (`target_type = 'case'`), which audit_events_target_idx serves. `details.caseId` / `details.clientId` name
 * the case or client of events whose target is something else (a contact, a link, a statement); their expression
 * indexes let PostgreSQL combine the branches of the OR as bitmap index scans instead of scanning audit_events.
 */
function aboutCase(caseId: string): SQL {
  return sql`((${auditEvents.targetType} = 'case' and ${auditEvents.targetId} = ${caseId})
    or ${auditEvents.details}->>'caseId' = ${caseId})`;
}

function aboutClient(clientId: string): SQL {
  // target_id is text (targets are users, clients, cases…), so the case ids are compared as text.
  // `= any(array(…))` rather than `in (select …)`: the array is computed once, and an index condition can take it,
  // where a hashed subplan would be a filter applied to every audit event.
  const clientCases = sql`array(select ${cases.id}::text from ${cases} where ${cases.clientId} = ${clientId})`;
  return sql`((${auditEvents.targetType} = 'client' and ${auditEvents.targetId} = ${clientId})
    or ${auditEvents.details}->>'clientId' = ${clientId}
    or (${auditEvents.targetType} = 'case' and ${auditEvents.targetId} = any(${clientCases}))
    or ${auditEvents.details}->>'caseId' = any(${clientCases}))`;
}
