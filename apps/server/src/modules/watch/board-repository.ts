import type { CaseStage, ClockKind } from "@vigil/contract";
import { and, asc, count, eq, isNull, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { caseClocks, cases, clients } from "../../db/schema.js";

export type BoardFilter = {
  clientId?: string;
  stage?: CaseStage;
  kind?: ClockKind;
  /** A username, or null for the coordinators (clocks of no one assigned). */
  owner?: string | null;
  /** With `owner`: also every clock whose "due soon" point has passed at `now`, whoever owns it. */
  alsoDueSoon?: { now: Date; dueSoonShare: number };
  limit: number;
  offset: number;
};

export type BoardRow = {
  caseId: string;
  kind: ClockKind;
  startedAt: Date;
  dueAt: Date;
  windowMinutes: number;
  ownerSub: string | null;
  ownerUsername: string | null;
  ownerName: string | null;
  stage: CaseStage;
  priority: "routine" | "stat";
  caseNumber: string;
  patientFirstName: string | null;
  patientLastName: string | null;
  patientMrn: string | null;
  clientId: string;
  clientName: string;
  clientCode: string;
  clientTimezone: string;
  clockCount: number;
};

/**
 * The kept clocks the filter selects, on `case_clocks` alone (its copies of stage, client and owner): one row per
 * case (`is_next`) unless a kind is asked for. Each filter leads one of the table's `(…, due_at)` indexes.
 */
function boardConditions(filter: BoardFilter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [
    filter.kind ? eq(caseClocks.kind, filter.kind) : eq(caseClocks.isNext, true),
  ];
  if (filter.clientId) conditions.push(eq(caseClocks.clientId, filter.clientId));
  if (filter.stage) conditions.push(eq(caseClocks.stage, filter.stage));
  if (filter.owner !== undefined) {
    const owned = filter.owner === null ? isNull(caseClocks.ownerUsername) : eq(caseClocks.ownerUsername, filter.owner);
    const { alsoDueSoon } = filter;
    conditions.push(
      alsoDueSoon
        ? or(
            owned,
            sql`${caseClocks.dueAt} - ${caseClocks.windowMinutes} * ${alsoDueSoon.dueSoonShare}::float8 * interval '1 minute' <= ${alsoDueSoon.now.toISOString()}::timestamptz`,
          )
        : owned,
    );
  }
  return and(...conditions);
}

/** One page of the board, sooner due first, and how many rows the filter selects in all. */
export async function findBoardPage(db: Db, filter: BoardFilter): Promise<{ rows: BoardRow[]; total: number }> {
  const where = boardConditions(filter);
  const [rows, [counted]] = await Promise.all([
    db
      .select({
        caseId: caseClocks.caseId,
        kind: caseClocks.kind,
        startedAt: caseClocks.startedAt,
        dueAt: caseClocks.dueAt,
        windowMinutes: caseClocks.windowMinutes,
        ownerSub: caseClocks.ownerSub,
        ownerUsername: caseClocks.ownerUsername,
        ownerName: caseClocks.ownerName,
        stage: caseClocks.stage,
        priority: caseClocks.priority,
        caseNumber: cases.caseNumber,
        patientFirstName: cases.patientFirstName,
        patientLastName: cases.patientLastName,
        patientMrn: cases.patientMrn,
        clientId: clients.id,
        clientName: clients.name,
        clientCode: clients.code,
        clientTimezone: clients.timezone,
        clockCount: sql<number>`(select count(*)::int from case_clocks o where o.case_id = ${caseClocks.caseId})`,
      })
      .from(caseClocks)
      .innerJoin(cases, eq(cases.id, caseClocks.caseId))
      .innerJoin(clients, eq(clients.id, caseClocks.clientId))
      .where(where)
      .orderBy(asc(caseClocks.dueAt), asc(caseClocks.caseId))
      .limit(filter.limit)
      .offset(filter.offset),
    db.select({ total: count() }).from(caseClocks).where(where),
  ]);
  return { rows, total: counted?.total ?? 0 };
}
