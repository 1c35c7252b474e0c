import type { CasePriority, CaseStage } from "@vigil/contract";
import { and, asc, desc, eq, exists, gte, isNull, lte, type SQL, sql } from "drizzle-orm";
import { type CappedTotal, countCapped } from "../../db/capped-count.js";
import type { Db } from "../../db/client.js";
import { caseAssignments, cases, caseTransitions, clients, searchableText } from "../../db/schema.js";

export type QueueFilter = {
  stage: CaseStage;
  clientId?: string | undefined;
  priority?: CasePriority | undefined;
  technologistId?: string | undefined;
  reviewerId?: string | undefined;
  createdFrom?: Date | undefined;
  createdTo?: Date | undefined;
  search?: string | undefined;
  sort: "priority" | "createdAt" | "updatedAt" | "caseNumber";
  order: "asc" | "desc";
  limit: number;
  offset: number;
};

/**
 * What one typed word must match (see `searchText` in db/tables/case-tables.ts): three or more digits anywhere in a word (the
 * digits of a case number or an MRN, read out over the phone); anything else at the start of a word, compared as
 * `searchableText`, so accents, case and punctuation do not matter ("o'brien" is the words "o brien"). Shorter
 * digit runs match at a word start only: fewer than three characters make no trigram, so "anywhere" would read
 * every case. `searchableText` turns `%`, `_` and `\` into spaces, so nothing typed is a LIKE wildcard.
 */
function searchWordCondition(word: string): SQL {
  if (/^\p{Nd}{3,}$/u.test(word)) return sql`${cases.searchText} like ${`%${word}%`}`;
  return sql`${cases.searchText} like '% ' || btrim(${searchableText(sql`${word}::text`)}) || '%'`;
}

/** The words of a search: split at white space; a word without a letter or digit (a lone "-") matches anything. */
function searchConditions(search: string): SQL[] {
  return search
    .split(/\s+/u)
    .filter((word) => /[\p{L}\p{N}]/u.test(word))
    .map(searchWordCondition);
}

function queueConditions(db: Db, filter: QueueFilter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [eq(cases.stage, filter.stage), isNull(cases.archivedAt)];
  if (filter.clientId) conditions.push(eq(cases.clientId, filter.clientId));
  if (filter.priority) conditions.push(eq(cases.priority, filter.priority));
  if (filter.reviewerId) conditions.push(eq(cases.reviewerSub, filter.reviewerId));
  if (filter.createdFrom) conditions.push(gte(cases.createdAt, filter.createdFrom));
  if (filter.createdTo) conditions.push(lte(cases.createdAt, filter.createdTo));
  if (filter.technologistId) {
    conditions.push(
      exists(
        db
          .select({ one: sql`1` })
          .from(caseAssignments)
          .where(
            and(
              eq(caseAssignments.caseId, cases.id),
              eq(caseAssignments.technologistSub, filter.technologistId),
              isNull(caseAssignments.endedAt),
            ),
          ),
      ),
    );
  }
  // Every word typed must match, in any order: "Łukasz O'Brien", "obrien 0001" and "CM-2026-000008" all narrow.
  if (filter.search) conditions.push(...searchConditions(filter.search));
  return and(...conditions);
}

/** A technologist as the queue lists them (from the case's active assignments). */
export type QueueTechnologist = { sub: string; username: string; name: string | null };

/** What a queue row shows of a case: the page's columns, its technologists and whether a move awaits approval. */
export type QueueRow = {
  id: string;
  caseNumber: string;
  clientId: string;
  studyType: (typeof cases.$inferSelect)["studyType"];
  hasVideo: boolean;
  priority: CasePriority;
  stage: CaseStage;
  createdAt: Date;
  updatedAt: Date;
  clientName: string;
  clientCode: string;
  clientTimezone: string;
  patientFirstName: string | null;
  patientLastName: string | null;
  patientMrn: string | null;
  reviewerSub: string | null;
  reviewerUsername: string | null;
  reviewerName: string | null;
  acknowledgedAt: Date | null;
  recordingStartedAt: Date | null;
  recordingEndedAt: Date | null;
  version: number;
  technologists: QueueTechnologist[];
  hasPendingTransition: boolean;
};

/**
 * One page of a stage queue, in one statement: the page's cases with their client, their active technologists
 * and whether a move awaits approval (correlated subqueries over the page's rows only), then the total, exact up
 * to 10,000 rows and estimated beyond (db/capped-count.ts). The default order (STAT first, then oldest first)
 * walks `cases_queue_idx` (`cases_queue_client_idx` with a client filter); searches go through the trigram index
 * on `search_text` (`cases_search_idx`).
 */
export async function findCaseQueuePage(db: Db, filter: QueueFilter): Promise<{ rows: QueueRow[] } & CappedTotal> {
  const where = queueConditions(db, filter);
  const direction = filter.order === "desc" ? desc : asc;
  const order: SQL[] =
    filter.sort === "priority"
      ? [
          // STAT first whatever the order; then oldest first (or newest first with order=desc).
          sql`${cases.priority} desc nulls last`,
          direction(cases.createdAt),
          direction(cases.id),
        ]
      : [direction(cases[filter.sort]), direction(cases.id)];
  const [rows, counted] = await Promise.all([
    db
      .select({
        id: cases.id,
        caseNumber: cases.caseNumber,
        clientId: cases.clientId,
        studyType: cases.studyType,
        hasVideo: cases.hasVideo,
        priority: cases.priority,
        stage: cases.stage,
        createdAt: cases.createdAt,
        updatedAt: cases.updatedAt,
        clientName: clients.name,
        clientCode: clients.code,
        clientTimezone: clients.timezone,
        patientFirstName: cases.patientFirstName,
        patientLastName: cases.patientLastName,
        patientMrn: cases.patientMrn,
        reviewerSub: cases.reviewerSub,
        reviewerUsername: cases.reviewerUsername,
        reviewerName: cases.reviewerName,
        acknowledgedAt: cases.acknowledgedAt,
        recordingStartedAt: cases.recordingStartedAt,
        recordingEndedAt: cases.recordingEndedAt,
        version: cases.version,
        technologists: sql<QueueTechnologist[]>`coalesce((
          select json_agg(json_build_object('sub', a.technologist_sub, 'username', a.technologist_username,
            'name', a.technologist_name) order by a.started_at, a.id)
          from ${caseAssignments} a where a.case_id = ${cases.id} and a.ended_at is null), '[]'::json)`,
        hasPendingTransition: sql<boolean>`exists (select 1 from ${caseTransitions} t
          where t.case_id = ${cases.id} and t.status = 'pending')`,
      })
      .from(cases)
      .innerJoin(clients, eq(clients.id, cases.clientId))
      .where(where)
      .orderBy(...order)
      .limit(filter.limit)
      .offset(filter.offset),
    countCapped(db, db.select({ one: sql`1` }).from(cases).where(where)),
  ]);
  return {
    rows: rows.map((row) => ({
      ...row,
      technologists: typeof row.technologists === "string" ? JSON.parse(row.technologists) : row.technologists,
    })),
    ...counted,
  };
}
