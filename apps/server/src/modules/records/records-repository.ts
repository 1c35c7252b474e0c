import type { Author, CaseStage, RecordKind, TimeLogData } from "@vigil/contract";
import { and, asc, count, desc, eq, gt, isNull, lt, ne, or, type SQL, sql } from "drizzle-orm";
import { keepBillableFigures } from "../../db/billable-figures.js";
import type { Db } from "../../db/client.js";
import { keepConcurrentPeaks } from "../../db/concurrent-peaks.js";
import { preparedOnce } from "../../db/prepared-once.js";
import { caseRecordRevisions, caseRecords, cases, caseTimeLogs } from "../../db/schema.js";

export type RecordRow = typeof caseRecords.$inferSelect;
export type RecordValues = typeof caseRecords.$inferInsert;
export type RevisionRow = typeof caseRecordRevisions.$inferSelect;
export type RevisionValues = typeof caseRecordRevisions.$inferInsert;
export type TimeLogRow = typeof caseTimeLogs.$inferSelect;
export type TimeLogValues = typeof caseTimeLogs.$inferInsert;

/** What the records need of their case: where it is in the workflow and what it pinned. */
export type CaseState = {
  id: string;
  caseNumber: string;
  clientId: string;
  stage: CaseStage;
  archivedAt: Date | null;
  protocolRevisionId: string | null;
  recordingStartedAt: Date | null;
  recordingEndedAt: Date | null;
  createdAt: Date;
};

/**
 * The case row, locked FOR UPDATE when `lock` is set. This reads the cases module's table on purpose: a record
 * write must hold the same row lock that stage transitions take, so that "the stage allows this write" is still
 * true when the write commits. Asking the cases service first and writing afterwards would race with a move.
 */
export async function findCaseState(db: Db, id: string, lock?: "update"): Promise<CaseState | undefined> {
  const query = () =>
    db
      .select({
        id: cases.id,
        caseNumber: cases.caseNumber,
        clientId: cases.clientId,
        stage: cases.stage,
        archivedAt: cases.archivedAt,
        protocolRevisionId: cases.protocolRevisionId,
        recordingStartedAt: cases.recordingStartedAt,
        recordingEndedAt: cases.recordingEndedAt,
        createdAt: cases.createdAt,
      })
      .from(cases)
      .where(eq(cases.id, sql.placeholder("id")))
      .limit(1);
  const [row] = lock
    ? await query().for(lock).execute({ id })
    : await preparedOnce(db, "case-state", () => query().prepare("")).execute({ id });
  return row;
}

/** One item of a case's records of one kind (locked FOR UPDATE when asked), or undefined. */
export async function findRecord(
  db: Db,
  where: { id: string; caseId: string; kind: RecordKind },
  lock?: "update",
): Promise<RecordRow | undefined> {
  const query = db
    .select()
    .from(caseRecords)
    .where(and(eq(caseRecords.id, where.id), eq(caseRecords.caseId, where.caseId), eq(caseRecords.kind, where.kind)))
    .limit(1);
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}

/** Each kind's own time, newest first; notes have none beyond when they were written. */
const listOrder: Record<RecordKind, SQL> = {
  interpretation: sql`(${caseRecords.data}->>'periodFrom')::timestamptz desc`,
  impedance: sql`(${caseRecords.data}->>'checkedAt')::timestamptz desc`,
  event: sql`(${caseRecords.data}->>'occurredAt')::timestamptz desc`,
  "time-log": sql`(${caseRecords.data}->>'startedAt')::timestamptz desc`,
  "case-note": sql`${caseRecords.createdAt} desc`,
  "billing-note": sql`${caseRecords.createdAt} desc`,
};

/** One page of a case's items of one kind (through `case_records_case_kind_idx`). */
export async function findRecordPage(
  db: Db,
  filter: { caseId: string; kind: RecordKind; includeDeleted: boolean; limit: number; offset: number },
): Promise<{ rows: RecordRow[]; total: number }> {
  const { page, counted } = preparedOnce(db, `record-page:${filter.kind}:${filter.includeDeleted}`, () => {
    const conditions: SQL[] = [
      eq(caseRecords.caseId, sql.placeholder("caseId")),
      eq(caseRecords.kind, sql.placeholder("kind")),
    ];
    if (!filter.includeDeleted) conditions.push(eq(caseRecords.deleted, false));
    const where = and(...conditions);
    return {
      page: db
        .select()
        .from(caseRecords)
        .where(where)
        .orderBy(listOrder[filter.kind], desc(caseRecords.createdAt), desc(caseRecords.id))
        .limit(sql.placeholder("limit"))
        .offset(sql.placeholder("offset"))
        .prepare(""),
      counted: db.select({ total: count() }).from(caseRecords).where(where).prepare(""),
    };
  });
  const [rows, [total]] = await Promise.all([page.execute(filter), counted.execute(filter)]);
  return { rows, total: Number(total?.total ?? 0) };
}

export async function insertRecord(db: Db, values: RecordValues): Promise<RecordRow> {
  const [row] = await db.insert(caseRecords).values(values).returning();
  return row as RecordRow;
}

/** The item's new current state (its latest revision). */
export async function updateRecordRow(
  db: Db,
  id: string,
  values: Pick<RecordValues, "revision" | "deleted" | "data" | "meta" | "updatedBySub" | "updatedByUsername"> &
    Partial<Pick<RecordValues, "updatedByName" | "updatedAt">>,
): Promise<RecordRow> {
  const [row] = await db
    .update(caseRecords)
    .set({ updatedAt: sql`now()`, ...values })
    .where(eq(caseRecords.id, id))
    .returning();
  return row as RecordRow;
}

/** Fails with unique_violation on (record_id, revision) if that number was taken: nothing is overwritten. */
export async function insertRevision(db: Db, values: RevisionValues): Promise<RevisionRow> {
  const [row] = await db.insert(caseRecordRevisions).values(values).returning();
  return row as RevisionRow;
}

/** Every revision of an item, oldest first. */
export async function findRevisions(db: Db, recordId: string): Promise<RevisionRow[]> {
  return db
    .select()
    .from(caseRecordRevisions)
    .where(eq(caseRecordRevisions.recordId, recordId))
    .orderBy(asc(caseRecordRevisions.revision));
}

/**
 * Writes the time log's typed projection (its current state), in the transaction of the revision, and moves the
 * billable figures kept from it (db/billable-figures.ts) from the old row to the new one. Every time-log write —
 * create, revision, delete, restore, import — comes through here, so the figures can never miss one.
 */
export async function saveTimeLog(db: Db, values: TimeLogValues): Promise<void> {
  const { recordId: _key, ...changes } = values;
  const [before] = await db.select().from(caseTimeLogs).where(eq(caseTimeLogs.recordId, values.recordId));
  await db.insert(caseTimeLogs).values(values).onConflictDoUpdate({ target: caseTimeLogs.recordId, set: changes });
  await keepBillableFigures(db, before, values);
  await keepConcurrentPeaks(db, before, values);
}

/** The case's time logs that are not deleted. */
export async function findTimeLogsOfCase(db: Db, caseId: string): Promise<TimeLogRow[]> {
  return preparedOnce(db, "time-logs-of-case", () =>
    db
      .select()
      .from(caseTimeLogs)
      .where(and(eq(caseTimeLogs.caseId, sql.placeholder("caseId")), eq(caseTimeLogs.deleted, false)))
      .orderBy(asc(caseTimeLogs.startedAt))
      .prepare(""),
  ).execute({ caseId });
}

/**
 * A technologist's live logs on one case that overlap [start, end) (end null: open-ended), except `excludeId`.
 */
export async function findOverlappingTimeLogs(
  db: Db,
  filter: { caseId: string; technologistUsername: string; start: Date; end: Date | null; excludeId?: string },
): Promise<TimeLogRow[]> {
  const conditions: (SQL | undefined)[] = [
    eq(caseTimeLogs.caseId, filter.caseId),
    eq(caseTimeLogs.technologistUsername, filter.technologistUsername),
    eq(caseTimeLogs.deleted, false),
    or(isNull(caseTimeLogs.endedAt), gt(caseTimeLogs.endedAt, filter.start)),
  ];
  if (filter.end) conditions.push(lt(caseTimeLogs.startedAt, filter.end));
  if (filter.excludeId) conditions.push(ne(caseTimeLogs.recordId, filter.excludeId));
  return db
    .select()
    .from(caseTimeLogs)
    .where(and(...conditions))
    .orderBy(asc(caseTimeLogs.startedAt));
}

/** The running logs of these technologists on any case (through `case_time_logs_running_idx`). */
export async function findRunningTimeLogsOf(db: Db, technologistUsernames: readonly string[]): Promise<TimeLogRow[]> {
  if (technologistUsernames.length === 0) return [];
  // Built once: every time-logs tab with a running log asks it, and drizzle building it per request was most of what
  // the tab's requests left for the old generation (docs/operations.md, "what a paced read promotes").
  return preparedOnce(db, "running-time-logs-of", () =>
    db
      .select()
      .from(caseTimeLogs)
      .where(
        and(
          sql`${caseTimeLogs.technologistUsername} = any(${sql.placeholder("usernames")}::text[])`,
          isNull(caseTimeLogs.endedAt),
          eq(caseTimeLogs.deleted, false),
        ),
      )
      .prepare(""),
  ).execute({ usernames: [...technologistUsernames] });
}

/** The technologist's most recent (by start) live log on the case. */
export async function findLatestTimeLogOf(
  db: Db,
  caseId: string,
  technologistUsername: string,
): Promise<TimeLogRow | undefined> {
  const [row] = await db
    .select()
    .from(caseTimeLogs)
    .where(
      and(
        eq(caseTimeLogs.caseId, caseId),
        eq(caseTimeLogs.technologistUsername, technologistUsername),
        eq(caseTimeLogs.deleted, false),
      ),
    )
    .orderBy(desc(caseTimeLogs.startedAt), desc(caseTimeLogs.recordId))
    .limit(1);
  return row;
}

export async function existsSignedInterpretation(db: Db, caseId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: caseRecords.id })
    .from(caseRecords)
    .where(
      and(
        eq(caseRecords.caseId, caseId),
        eq(caseRecords.kind, "interpretation"),
        eq(caseRecords.deleted, false),
        sql`${caseRecords.meta}->>'status' = 'final'`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The latest time (a timestamp field of `data`) among the case's live items of a kind, optionally of a type. */
export async function findLatestRecordTime(
  db: Db,
  filter: { caseId: string; kind: RecordKind; field: string; eventType?: string },
): Promise<Date | undefined> {
  const statement = preparedOnce(db, `latest-record-time:${Boolean(filter.eventType)}`, () => {
    const conditions: SQL[] = [
      eq(caseRecords.caseId, sql.placeholder("caseId")),
      eq(caseRecords.kind, sql.placeholder("kind")),
      eq(caseRecords.deleted, false),
    ];
    if (filter.eventType) {
      conditions.push(sql`${caseRecords.data}->>'type' = ${sql.placeholder("eventType")}`);
    }
    return db
      .select({
        // Epoch seconds: both drivers hand a float8 back as a number, whatever the session's time zone.
        latest: sql<
          number | string | null
        >`extract(epoch from max((${caseRecords.data}->>${sql.placeholder("field")})::timestamptz))::float8`,
      })
      .from(caseRecords)
      .where(and(...conditions))
      .prepare("");
  });
  const [row] = await statement.execute(filter);
  return row?.latest === null || row?.latest === undefined ? undefined : new Date(Number(row.latest) * 1000);
}

/** Live events whose notification has not been acknowledged. */
export async function countUnacknowledgedNotifications(db: Db, caseId: string): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(caseRecords)
    .where(
      and(
        eq(caseRecords.caseId, caseId),
        eq(caseRecords.kind, "event"),
        eq(caseRecords.deleted, false),
        sql`jsonb_typeof(${caseRecords.data}->'notification') = 'object'`,
        sql`${caseRecords.data}->'notification'->>'acknowledgedAt' is null`,
      ),
    );
  return Number(row?.total ?? 0);
}

/** The time-log projection row of an item's data: what billing and the overlap checks read. */
export function timeLogProjection(
  row: { id: string; caseId: string },
  data: TimeLogData,
  deleted: boolean,
  technologist: Author,
) {
  return {
    recordId: row.id,
    caseId: row.caseId,
    technologistSub: technologist.sub,
    technologistUsername: technologist.username,
    technologistName: technologist.name,
    activity: data.activity,
    mode: data.mode,
    video: data.video,
    billable: data.billable,
    channels: data.channels,
    startedAt: new Date(data.startedAt),
    endedAt: data.endedAt ? new Date(data.endedAt) : null,
    deleted,
  };
}
