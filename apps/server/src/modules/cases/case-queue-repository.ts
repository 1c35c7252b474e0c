import type { CasePriority, CaseStage } from "@vigil/contract";
import { and, asc, desc, eq, exists, gte, isNull, lte, type Placeholder, type SQL, sql } from "drizzle-orm";
import { columnsOf, instant, instantOrNull, prepareArrayRows, prepareRaw } from "../../db/array-rows.js";
import { type CappedTotal, exactCountCap } from "../../db/capped-count.js";
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
 *
 * `value` is the word's placeholder: a digit run's is `%digits%`, any other word's the word itself (`searchValues`).
 */
function searchWordCondition(kind: SearchWordKind, value: Placeholder): SQL {
  if (kind === "digits") return sql`${cases.searchText} like ${value}`;
  return sql`${cases.searchText} like '% ' || btrim(${searchableText(sql`${value}::text`)}) || '%'`;
}

type SearchWordKind = "digits" | "word";

/** The words of a search: split at white space; a word without a letter or digit (a lone "-") matches anything. */
function searchWords(search: string | undefined): { kind: SearchWordKind; value: string }[] {
  if (!search) return [];
  return search
    .split(/\s+/u)
    .filter((word) => /[\p{L}\p{N}]/u.test(word))
    .map((word) =>
      /^\p{Nd}{3,}$/u.test(word) ? { kind: "digits", value: `%${word}%` } : { kind: "word", value: word },
    );
}

/**
 * Which filters a queue request uses, and its order: what its statement's text depends on. The values go in as
 * placeholders, so one statement per shape serves every client, stage, page and search of that shape.
 */
type QueueShape = {
  clientId: boolean;
  priority: boolean;
  reviewerId: boolean;
  createdFrom: boolean;
  createdTo: boolean;
  technologistId: boolean;
  searchWords: SearchWordKind[];
  sort: QueueFilter["sort"];
  order: QueueFilter["order"];
};

function shapeOf(filter: QueueFilter, words: { kind: SearchWordKind }[]): QueueShape {
  return {
    clientId: Boolean(filter.clientId),
    priority: Boolean(filter.priority),
    reviewerId: Boolean(filter.reviewerId),
    createdFrom: Boolean(filter.createdFrom),
    createdTo: Boolean(filter.createdTo),
    technologistId: Boolean(filter.technologistId),
    searchWords: words.map((word) => word.kind),
    sort: filter.sort,
    order: filter.order,
  };
}

function queueConditions(db: Db, shape: QueueShape): SQL | undefined {
  const conditions: (SQL | undefined)[] = [eq(cases.stage, sql.placeholder("stage")), isNull(cases.archivedAt)];
  if (shape.clientId) conditions.push(eq(cases.clientId, sql.placeholder("clientId")));
  if (shape.priority) conditions.push(eq(cases.priority, sql.placeholder("priority")));
  if (shape.reviewerId) conditions.push(eq(cases.reviewerSub, sql.placeholder("reviewerId")));
  if (shape.createdFrom) conditions.push(gte(cases.createdAt, sql.placeholder("createdFrom")));
  if (shape.createdTo) conditions.push(lte(cases.createdAt, sql.placeholder("createdTo")));
  if (shape.technologistId) {
    conditions.push(
      exists(
        db
          .select({ one: sql`1` })
          .from(caseAssignments)
          .where(
            and(
              eq(caseAssignments.caseId, cases.id),
              eq(caseAssignments.technologistSub, sql.placeholder("technologistId")),
              isNull(caseAssignments.endedAt),
            ),
          ),
      ),
    );
  }
  // Every word typed must match, in any order: "Łukasz O'Brien", "obrien 0001" and "CM-2026-000008" all narrow.
  conditions.push(
    ...shape.searchWords.map((kind, index) => searchWordCondition(kind, sql.placeholder(`word${index}`))),
  );
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

/** The columns of a queue row, in the order the page's statement selects them. */
const queueSelection = {
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
  technologists: sql<QueueTechnologist[] | string>`coalesce((
    select json_agg(json_build_object('sub', a.technologist_sub, 'username', a.technologist_username,
      'name', a.technologist_name) order by a.started_at, a.id)
    from ${caseAssignments} a where a.case_id = ${cases.id} and a.ended_at is null), '[]'::json)`,
  hasPendingTransition: sql<boolean>`exists (select 1 from ${caseTransitions} t
    where t.case_id = ${cases.id} and t.status = 'pending')`,
} satisfies Record<keyof QueueRow, unknown>;

const column = columnsOf(queueSelection);

/**
 * A queue row from the page statement's row read as an array. Drizzle's own mapping checks every column's kind on
 * every row, a queue page's largest cost in the server after the answer itself (docs/operations.md, "Responses
 * parsed by compiled schemas"); the page's columns are known, so each is read in place. PGlite hands json back
 * parsed, node-postgres may hand it as text.
 */
function queueRowOf(row: unknown[]): QueueRow {
  const technologists = row[column.technologists];
  return {
    id: row[column.id] as string,
    caseNumber: row[column.caseNumber] as string,
    clientId: row[column.clientId] as string,
    studyType: row[column.studyType] as QueueRow["studyType"],
    hasVideo: row[column.hasVideo] as boolean,
    priority: row[column.priority] as CasePriority,
    stage: row[column.stage] as CaseStage,
    createdAt: instant(row[column.createdAt]),
    updatedAt: instant(row[column.updatedAt]),
    clientName: row[column.clientName] as string,
    clientCode: row[column.clientCode] as string,
    clientTimezone: row[column.clientTimezone] as string,
    patientFirstName: row[column.patientFirstName] as string | null,
    patientLastName: row[column.patientLastName] as string | null,
    patientMrn: row[column.patientMrn] as string | null,
    reviewerSub: row[column.reviewerSub] as string | null,
    reviewerUsername: row[column.reviewerUsername] as string | null,
    reviewerName: row[column.reviewerName] as string | null,
    acknowledgedAt: instantOrNull(row[column.acknowledgedAt]),
    recordingStartedAt: instantOrNull(row[column.recordingStartedAt]),
    recordingEndedAt: instantOrNull(row[column.recordingEndedAt]),
    version: Number(row[column.version]),
    technologists: (typeof technologists === "string"
      ? JSON.parse(technologists)
      : technologists) as QueueTechnologist[],
    hasPendingTransition: row[column.hasPendingTransition] as boolean,
  };
}

/** The statements of one queue shape, built once per database (a transaction gets its own). */
const preparedQueues = new WeakMap<Db, Map<string, ReturnType<typeof prepareQueue>>>();

/**
 * Unnamed statements (`prepare("")`): drizzle builds their text once and then only fills in the values, while
 * PostgreSQL still plans each execution with its values, exactly as the statements built per request were planned.
 */
function prepareQueue(db: Db, shape: QueueShape) {
  const where = queueConditions(db, shape);
  const direction = shape.order === "desc" ? desc : asc;
  const order: SQL[] =
    shape.sort === "priority"
      ? [
          // STAT first whatever the order; then oldest first (or newest first with order=desc).
          sql`${cases.priority} desc nulls last`,
          direction(cases.createdAt),
          direction(cases.id),
        ]
      : [direction(cases[shape.sort]), direction(cases.id)];
  const selected = db
    .select(queueSelection)
    .from(cases)
    .innerJoin(clients, eq(clients.id, cases.clientId))
    .where(where)
    .orderBy(...order)
    .limit(sql.placeholder("limit"))
    .offset(sql.placeholder("offset"));
  const page = prepareArrayRows(db, selected.getSQL(), queueRowOf);
  // The capped total of db/capped-count.ts, the same two statements.
  const counted = db.select({ one: sql`1` }).from(cases).where(where);
  const count = prepareRaw<{ n: number }>(
    db,
    sql`select count(*)::int as n from (${counted} limit ${exactCountCap + 1}) capped`,
  );
  const estimate = prepareRaw<{ "QUERY PLAN": unknown }>(db, sql`explain (format json) ${sql`${counted}`}`);
  return { page, count, estimate };
}

function queueStatements(db: Db, shape: QueueShape) {
  let statements = preparedQueues.get(db);
  if (!statements) {
    statements = new Map();
    preparedQueues.set(db, statements);
  }
  const key = JSON.stringify(shape);
  let prepared = statements.get(key);
  if (!prepared) {
    prepared = prepareQueue(db, shape);
    statements.set(key, prepared);
  }
  return prepared;
}

/**
 * One page of a stage queue, in one statement: the page's cases with their client, their active technologists
 * and whether a move awaits approval (correlated subqueries over the page's rows only), then the total, exact up
 * to 10,000 rows and estimated beyond (db/capped-count.ts). The default order (STAT first, then oldest first)
 * walks `cases_queue_idx` (`cases_queue_client_idx` with a client filter); searches go through the trigram index
 * on `search_text` (`cases_search_idx`).
 */
export async function findCaseQueuePage(db: Db, filter: QueueFilter): Promise<{ rows: QueueRow[] } & CappedTotal> {
  const words = searchWords(filter.search);
  const { page, count, estimate } = queueStatements(db, shapeOf(filter, words));
  const values: Record<string, unknown> = {
    stage: filter.stage,
    clientId: filter.clientId,
    priority: filter.priority,
    reviewerId: filter.reviewerId,
    // As the column would write them (drizzle maps a placeholder's value only inside a column's own Param).
    createdFrom: filter.createdFrom?.toISOString(),
    createdTo: filter.createdTo?.toISOString(),
    technologistId: filter.technologistId,
    limit: filter.limit,
    offset: filter.offset,
  };
  for (const [index, word] of words.entries()) values[`word${index}`] = word.value;
  const [rows, [counted]] = await Promise.all([page.execute(values), count(values)]);
  const exact = Number(counted?.n ?? 0);
  if (exact <= exactCountCap) return { rows, total: exact, totalIsEstimate: false };
  const [planned] = await estimate(values);
  const plan = planned?.["QUERY PLAN"];
  const parsed = (typeof plan === "string" ? JSON.parse(plan) : plan) as { Plan?: { "Plan Rows"?: number } }[];
  const estimated = Math.round(Number(parsed?.[0]?.Plan?.["Plan Rows"] ?? 0));
  return { rows, total: Math.max(exactCountCap + 1, estimated), totalIsEstimate: true };
}
