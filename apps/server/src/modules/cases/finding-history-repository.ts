import { asc, eq, sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client.js";
import { criticalFindings } from "../../db/schema.js";

export type FindingHistoryRow = typeof criticalFindings.$inferSelect;

/** Who was told at one level of one finding (0: the raise; n: the n-th escalation), and when the first was. */
export type FindingLevelRow = { findingId: string; level: number; at: Date; names: string };

/**
 * A case's critical findings and their levels of recipients, for the case timeline. The findings module writes these
 * tables and builds on cases, so cases reads them with a query of its own rather than importing that module.
 */
export async function findFindingHistory(
  db: Db,
  caseId: string,
): Promise<{ findings: FindingHistoryRow[]; levels: FindingLevelRow[] }> {
  const [findings, levels] = await Promise.all([
    db
      .select()
      .from(criticalFindings)
      .where(eq(criticalFindings.caseId, caseId))
      .orderBy(asc(criticalFindings.raisedAt), asc(criticalFindings.id)),
    queryRows<{ finding_id: string; level: number; at: string | Date; names: string }>(
      db,
      sql`select r.finding_id, r.level, min(r.notified_at) as at,
                 string_agg(r.name, ', ' order by r.notified_at, r.name) as names
          from finding_recipients r
          join critical_findings f on f.id = r.finding_id
          where f.case_id = ${caseId}
          group by r.finding_id, r.level`,
    ),
  ]);
  return {
    findings,
    levels: levels.map((row) => ({
      findingId: row.finding_id,
      level: Number(row.level),
      at: new Date(row.at),
      names: row.names,
    })),
  };
}
