import { and, eq, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { caseClocks, cases } from "../../db/schema.js";

export type CaseClockInsert = typeof caseClocks.$inferInsert;

/** Replaces the kept clocks of one case with `rows` (none: the case has no running clock). */
export async function replaceCaseClocks(tx: Db, caseId: string, rows: CaseClockInsert[]): Promise<void> {
  await tx.delete(caseClocks).where(eq(caseClocks.caseId, caseId));
  if (rows.length > 0) await tx.insert(caseClocks).values(rows);
}

/** The open cases of a client that follow its current protocol (no revision pinned yet). */
export async function findUnpinnedOpenCaseIds(tx: Db, clientId: string): Promise<string[]> {
  const rows = await tx
    .select({ id: cases.id })
    .from(cases)
    .where(
      and(
        eq(cases.clientId, clientId),
        isNull(cases.protocolRevisionId),
        isNull(cases.archivedAt),
        ne(cases.stage, "closed"),
      ),
    );
  return rows.map((row) => row.id);
}

/** Every open case, oldest first (a rebuild after a restore or a bulk load). */
export async function findOpenCaseIds(db: Db): Promise<string[]> {
  const rows = await db
    .select({ id: cases.id })
    .from(cases)
    .where(and(isNull(cases.archivedAt), ne(cases.stage, "closed")))
    .orderBy(cases.createdAt);
  return rows.map((row) => row.id);
}

/** Drops every kept clock (before a rebuild). */
export async function deleteAllCaseClocks(db: Db): Promise<void> {
  await db.execute(sql`delete from case_clocks`);
}

/**
 * Whether the kept clocks look never built: open cases but no kept clock at all, or a case recording in monitoring
 * without its impedance clock (which always runs there), or an open critical finding's clock that is not its case's
 * row (kept before critical findings led the board). True for a database from before the kept clocks, a restored
 * backup of one, or a bulk load that bypassed the services; three cheap lookups otherwise.
 */
export async function hasUnkeptClocks(db: Db): Promise<boolean> {
  const result = (await db.execute(sql`
    select (
      (exists (select 1 from cases where archived_at is null and stage <> 'closed')
        and not exists (select 1 from case_clocks))
      or exists (
        select 1 from cases c
        where c.stage = 'monitoring' and c.archived_at is null
          and c.recording_started_at is not null and c.recording_ended_at is null
          and not exists (select 1 from case_clocks k where k.case_id = c.id and k.kind = 'impedance-check'))
      or exists (select 1 from case_clocks k where k.kind = 'critical-notification' and not k.is_next)
    ) as "unkept"`)) as unknown as { rows: { unkept: boolean }[] };
  return result.rows[0]?.unkept === true;
}

/** Holds the rebuild's lock until the transaction ends: instances starting together rebuild one after the other. */
export async function lockCaseClocksRebuild(tx: Db): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('vigil:case-clocks-rebuild'))`);
}
