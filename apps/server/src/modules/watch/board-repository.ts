import type { CaseStage, ClockKind } from "@vigil/contract";
import { and, asc, count, eq, isNull, ne, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { caseClocks, cases, clients } from "../../db/schema.js";

export type BoardFilter = {
  clientId?: string;
  stage?: CaseStage;
  kind?: ClockKind;
  /** A username, or null for the coordinators (clocks of no one assigned). */
  owner?: string | null;
  /** With `owner`: also every clock whose "due soon" point has passed at `now`, and every open critical finding's. */
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
  dischargedAt: Date | string | null;
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
            // An open critical finding is every desk's business from its raising (PRODUCT.md §11).
            eq(caseClocks.kind, "critical-notification"),
          )
        : owned,
    );
  }
  return and(...conditions);
}

const critical = "critical-notification" satisfies ClockKind;

/**
 * One page of the board and how many rows the filter selects in all: the open critical findings' clocks first (a
 * patient's seizure waiting for the hospital's acknowledgement leads however overdue the rest is, PRODUCT.md §11),
 * then every other, sooner due first. Read as two runs over the `(…, due_at)` indexes rather than one sort by a
 * computed rank, which would sort every open case's row on each read.
 */
export async function findBoardPage(db: Db, filter: BoardFilter): Promise<{ rows: BoardRow[]; total: number }> {
  const where = boardConditions(filter);
  const criticalWhere = and(where, eq(caseClocks.kind, critical));
  const [[counted], [criticalCounted]] = await Promise.all([
    db.select({ total: count() }).from(caseClocks).where(where),
    filter.kind && filter.kind !== critical
      ? [{ total: 0 }]
      : db.select({ total: count() }).from(caseClocks).where(criticalWhere),
  ]);
  const total = counted?.total ?? 0;
  const criticalTotal = criticalCounted?.total ?? 0;
  const criticalRows =
    filter.offset < criticalTotal
      ? await selectBoardRows(db, criticalWhere, filter.limit, filter.offset)
      : ([] as BoardRow[]);
  const left = filter.limit - criticalRows.length;
  const otherRows =
    left > 0 && criticalTotal < total
      ? await selectBoardRows(
          db,
          and(where, ne(caseClocks.kind, critical)),
          left,
          Math.max(0, filter.offset - criticalTotal),
        )
      : [];
  return { rows: [...criticalRows, ...otherRows], total };
}

function selectBoardRows(db: Db, where: SQL | undefined, limit: number, offset: number): Promise<BoardRow[]> {
  return db
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
      // The hospital interface's discharge (ADT^A03) of the case's patient, from its timeline (case_actions_case_idx).
      dischargedAt: sql<
        Date | string | null
      >`(select max(a.created_at) from case_actions a where a.case_id = ${caseClocks.caseId} and a.action = 'patient-discharged')`,
    })
    .from(caseClocks)
    .innerJoin(cases, eq(cases.id, caseClocks.caseId))
    .innerJoin(clients, eq(clients.id, caseClocks.clientId))
    .where(where)
    .orderBy(asc(caseClocks.dueAt), asc(caseClocks.caseId))
    .limit(limit)
    .offset(offset);
}
