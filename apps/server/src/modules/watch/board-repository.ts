import type { CaseStage, ClockKind } from "@vigil/contract";
import { and, asc, count, eq, isNull, ne, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { preparedOnce } from "../../db/prepared-once.js";
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
 * case (`is_next`) unless a kind is asked for. Each filter leads one of the table's `(…, due_at)` indexes. The
 * filter's values are placeholders: the statements of one filter shape are built once (`findBoardPage`, keyed by
 * `shapeOf`).
 */
function boardConditions(filter: BoardFilter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [
    filter.kind ? eq(caseClocks.kind, sql.placeholder("kind")) : eq(caseClocks.isNext, true),
  ];
  if (filter.clientId) conditions.push(eq(caseClocks.clientId, sql.placeholder("clientId")));
  if (filter.stage) conditions.push(eq(caseClocks.stage, sql.placeholder("stage")));
  if (filter.owner !== undefined) {
    const owned =
      filter.owner === null ? isNull(caseClocks.ownerUsername) : eq(caseClocks.ownerUsername, sql.placeholder("owner"));
    conditions.push(
      filter.alsoDueSoon
        ? or(
            owned,
            sql`${caseClocks.dueAt} - ${caseClocks.windowMinutes} * ${sql.placeholder("dueSoonShare")}::float8 * interval '1 minute' <= ${sql.placeholder("now")}::timestamptz`,
            // An open critical finding is every desk's business from its raising (PRODUCT.md §11).
            eq(caseClocks.kind, "critical-notification"),
          )
        : owned,
    );
  }
  return and(...conditions);
}

/** Which conditions a filter has (not their values): one set of statements per shape. */
function shapeOf(filter: BoardFilter): string {
  const owner = filter.owner === undefined ? "" : filter.owner === null ? "coordinators" : "owner";
  return [
    filter.kind ? "kind" : "next",
    filter.clientId ? "client" : "",
    filter.stage ? "stage" : "",
    owner,
    owner && filter.alsoDueSoon ? "due-soon" : "",
  ].join(":");
}

const critical = "critical-notification" satisfies ClockKind;

/**
 * One page of the board and how many rows the filter selects in all: the open critical findings' clocks first (a
 * patient's seizure waiting for the hospital's acknowledgement leads however overdue the rest is, PRODUCT.md §11),
 * then every other, sooner due first. Read as two runs over the `(…, due_at)` indexes rather than one sort by a
 * computed rank, which would sort every open case's row on each read.
 */
export async function findBoardPage(db: Db, filter: BoardFilter): Promise<{ rows: BoardRow[]; total: number }> {
  const statements = preparedOnce(db, `board:${shapeOf(filter)}`, () => {
    const where = boardConditions(filter);
    const criticalWhere = and(where, eq(caseClocks.kind, critical));
    return {
      counted: db.select({ total: count() }).from(caseClocks).where(where).prepare(""),
      criticalCounted: db.select({ total: count() }).from(caseClocks).where(criticalWhere).prepare(""),
      criticalRows: selectBoardRows(db, criticalWhere).prepare(""),
      otherRows: selectBoardRows(db, and(where, ne(caseClocks.kind, critical))).prepare(""),
    };
  });
  const values = {
    kind: filter.kind,
    clientId: filter.clientId,
    stage: filter.stage,
    owner: filter.owner,
    dueSoonShare: filter.alsoDueSoon?.dueSoonShare,
    now: filter.alsoDueSoon?.now.toISOString(),
  };
  const [[counted], [criticalCounted]] = await Promise.all([
    statements.counted.execute(values),
    filter.kind && filter.kind !== critical ? [{ total: 0 }] : statements.criticalCounted.execute(values),
  ]);
  const total = counted?.total ?? 0;
  const criticalTotal = criticalCounted?.total ?? 0;
  const criticalRows =
    filter.offset < criticalTotal
      ? await statements.criticalRows.execute({ limit: filter.limit, offset: filter.offset, ...values })
      : ([] as BoardRow[]);
  const left = filter.limit - criticalRows.length;
  const otherRows =
    left > 0 && criticalTotal < total
      ? await statements.otherRows.execute({
          limit: left,
          offset: Math.max(0, filter.offset - criticalTotal),
          ...values,
        })
      : [];
  return { rows: [...criticalRows, ...otherRows], total };
}

function selectBoardRows(db: Db, where: SQL | undefined) {
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
    .limit(sql.placeholder("limit"))
    .offset(sql.placeholder("offset"));
}
