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
