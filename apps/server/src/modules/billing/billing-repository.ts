import type { CaseStage } from "@vigil/contract";
import { and, asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { columnsOf, instant, instantOrNull, prepareArrayRows } from "../../db/array-rows.js";
import type { Db } from "../../db/client.js";
import { queryRows } from "../../db/client.js";
import { preparedOnce } from "../../db/prepared-once.js";
import { billingRateChanges, billingRates, caseRecords, cases, caseTimeLogs, clients } from "../../db/schema.js";
import { startedWithinReach } from "../../db/time-log-overlaps.js";
import {
  type ClientWindow,
  clientsWithKeptTime,
  type ReportSeconds,
  type WindowCaseSeconds,
} from "./billing-figures-repository.js";

export type { ClientWindow, ReportSeconds, WindowCaseSeconds };

/**
 * Billing reads the time logs' typed projection (`case_time_logs`), the cases and the clients directly: hours are
 * sums over many logs, and SQL adds them up where they lie instead of loading logs into memory. Windows (a client's
 * months, days or weeks, cut in its time zone by billing-calendar.ts) travel as parallel arrays and are joined
 * with `unnest`, so one query answers a whole overview or report.
 *
 * Cases that are archived are left out of every sum: archiving is how a case is deleted (opened by mistake or
 * withdrawn; only in intake, or by an administrator), it leaves every queue and can never be closed, so it is
 * never billed. Clients that are archived still have their hours: a client is archived only once its cases are
 * closed, and those months stay billed.
 */

export type RateRow = typeof billingRates.$inferSelect;
export type RateValues = typeof billingRates.$inferInsert;
export type RateChangeRow = typeof billingRateChanges.$inferSelect;
export type RateChangeValues = typeof billingRateChanges.$inferInsert;
export type TimeLogRow = typeof caseTimeLogs.$inferSelect;

export type BillingClientRow = { id: string; name: string; timezone: string };

export type BillingCaseRow = {
  id: string;
  caseNumber: string;
  clientId: string;
  stage: CaseStage;
  archivedAt: Date | null;
  patientFirstName: string | null;
  patientLastName: string | null;
};

function windowsTable(windows: readonly ClientWindow[]): SQL {
  return sql`unnest(
      ${sql.param(windows.map((window) => window.clientId))}::uuid[],
      ${sql.param(windows.map((window) => window.key))}::text[],
      ${sql.param(windows.map((window) => window.start.toISOString()))}::timestamptz[],
      ${sql.param(windows.map((window) => window.end.toISOString()))}::timestamptz[]
    ) as w(client_id, key, start_at, end_at)`;
}

/** The part of log `l` inside window `w`, a running log counting to `now`. */
function clipped(now: Date): { start: SQL; end: SQL } {
  return {
    start: sql`greatest(l.started_at, w.start_at)`,
    end: sql`least(coalesce(l.ended_at, ${now.toISOString()}::timestamptz), w.end_at)`,
  };
}

/**
 * Billable, live logs of the window's client's cases (archived cases left out) that have at least one whole second
 * inside the window. Whole seconds per log are the floor of its clipped interval, as billing-calendar's
 * `clipSeconds` counts them, so SQL and the calendar module always agree.
 */
function billableLogsIn(windows: readonly ClientWindow[], now: Date, extra?: SQL): SQL {
  const part = clipped(now);
  // The span of all windows bounds the logs from both sides (see time-log-reach.ts), so PostgreSQL reads only the
  // logs that can overlap it through case_time_logs_billable_idx and then pairs them with their client's windows,
  // instead of walking every log of every case of each client once per window.
  const spanStart = new Date(Math.min(...windows.map((window) => window.start.getTime())));
  const spanEnd = new Date(Math.max(...windows.map((window) => window.end.getTime())));
  return sql`from ${windowsTable(windows)}
    join ${cases} c on c.client_id = w.client_id and c.archived_at is null
    join ${caseTimeLogs} l on l.case_id = c.id
    where l.billable and not l.deleted
      and l.started_at < ${spanEnd.toISOString()}::timestamptz
      and ${startedWithinReach(sql`l.started_at`, spanStart, now)}
      and l.started_at < w.end_at
      and coalesce(l.ended_at, ${now.toISOString()}::timestamptz) > w.start_at
      and ${part.end} - ${part.start} >= interval '1 second'
      ${extra ? sql`and ${extra}` : sql``}`;
}

function wholeSeconds(now: Date): SQL {
  const part = clipped(now);
  return sql`sum(floor(extract(epoch from ${part.end} - ${part.start})))::float8`;
}

/**
 * Whole billable seconds per (window, case), with the number of logs and whether one of them still runs, summed
 * over the logs: the reference the kept figures (billing-figures-repository.ts, what billing reads) must equal.
 */
export async function sumBillableSecondsByCase(
  db: Db,
  windows: readonly ClientWindow[],
  now: Date,
  filter: { caseId?: string | undefined } = {},
): Promise<WindowCaseSeconds[]> {
  if (windows.length === 0) return [];
  const rows = await queryRows<{
    clientId: string;
    key: string;
    caseId: string;
    stage: CaseStage;
    seconds: number | string;
    logCount: number;
    running: boolean;
  }>(
    db,
    sql`select w.client_id as "clientId", w.key, l.case_id as "caseId", c.stage,
        ${wholeSeconds(now)} as seconds, count(*)::int as "logCount", bool_or(l.ended_at is null) as running
      ${billableLogsIn(windows, now, filter.caseId ? sql`l.case_id = ${filter.caseId}` : undefined)}
      group by w.client_id, w.key, l.case_id, c.stage`,
  );
  return rows.map((row) => ({
    clientId: row.clientId,
    key: row.key,
    caseId: row.caseId,
    stage: row.stage,
    seconds: Number(row.seconds),
    logCount: Number(row.logCount),
    running: row.running,
  }));
}

/**
 * Whole billable seconds grouped by the window's key, or by technologist (username), with the distinct cases and
 * logs in each group; optionally only one technologist's logs (usernames compare case-insensitively).
 */
export async function sumBillableSecondsForReport(
  db: Db,
  windows: readonly ClientWindow[],
  now: Date,
  options: { technologist?: string | undefined; byTechnologist: boolean },
): Promise<ReportSeconds[]> {
  if (windows.length === 0) return [];
  const technologist = options.technologist
    ? sql`lower(l.technologist_username) = lower(${options.technologist})`
    : undefined;
  const groupKey = options.byTechnologist ? sql`l.technologist_username` : sql`w.key`;
  const label = options.byTechnologist ? sql`max(l.technologist_name)` : sql`null::text`;
  const rows = await queryRows<{
    key: string;
    label: string | null;
    seconds: number | string;
    caseCount: number;
    logCount: number;
  }>(
    db,
    sql`select ${groupKey} as key, ${label} as label, ${wholeSeconds(now)} as seconds,
        count(distinct l.case_id)::int as "caseCount", count(distinct l.record_id)::int as "logCount"
      ${billableLogsIn(windows, now, technologist)}
      group by ${groupKey}`,
  );
  return rows.map((row) => ({
    key: row.key,
    label: row.label,
    seconds: Number(row.seconds),
    caseCount: Number(row.caseCount),
    logCount: Number(row.logCount),
  }));
}

/** Distinct cases and logs with billable time in any of the windows (a report's totals over its period). */
export async function countBillableInWindows(
  db: Db,
  windows: readonly ClientWindow[],
  now: Date,
  technologist?: string,
): Promise<{ caseCount: number; logCount: number }> {
  if (windows.length === 0) return { caseCount: 0, logCount: 0 };
  const filter = technologist ? sql`lower(l.technologist_username) = lower(${technologist})` : undefined;
  const [row] = await queryRows<{ caseCount: number; logCount: number }>(
    db,
    sql`select count(distinct l.case_id)::int as "caseCount", count(distinct l.record_id)::int as "logCount"
      ${billableLogsIn(windows, now, filter)}`,
  );
  return { caseCount: Number(row?.caseCount ?? 0), logCount: Number(row?.logCount ?? 0) };
}

/**
 * The clients a billing view covers, by name: those with billable time (of cases not archived) overlapping
 * [since, until), plus, when `includeActive`, every active client not archived (so a month can be priced before
 * it has hours) — or, with `clientId` too, that client whatever its state. `since`/`until` only narrow the
 * search; the exact cut happens per client zone afterwards.
 */
export async function findBillingClients(
  db: Db,
  filter: {
    clientId?: string | undefined;
    since: Date;
    until: Date;
    now: Date;
    includeActive: boolean;
    technologist?: string | undefined;
  },
): Promise<BillingClientRow[]> {
  const conditions: SQL[] = [];
  if (filter.clientId) conditions.push(sql`k.id = ${filter.clientId}`);
  const technologist = filter.technologist
    ? sql`and lower(l.technologist_username) = lower(${filter.technologist})`
    : sql``;
  // The clients with time, found once (materialized: a correlated `exists` per client would hash each client's
  // cases again, 50 times over on the benchmark's data): from the kept figures, or for one technologist's time
  // (which the figures do not keep apart) from the logs of the period.
  const fromLogs = sql`select distinct c.client_id from ${caseTimeLogs} l join ${cases} c on c.id = l.case_id
      where c.archived_at is null and l.billable and not l.deleted
        and l.started_at < ${filter.until.toISOString()}::timestamptz
        and ${startedWithinReach(sql`l.started_at`, filter.since, filter.now)}
        and coalesce(l.ended_at, ${filter.now.toISOString()}::timestamptz) > ${filter.since.toISOString()}::timestamptz
        ${filter.clientId ? sql`and c.client_id = ${filter.clientId}` : sql``}
        ${technologist}`;
  const billed = filter.technologist ? fromLogs : clientsWithKeptTime(filter);
  const hasTime = sql`k.id in (select client_id from billed)`;
  // Asked for by id, a client's months are shown whatever its status (its page lists them all).
  if (filter.includeActive && !filter.clientId) {
    conditions.push(sql`((k.archived_at is null and k.status = 'active') or ${hasTime})`);
  } else if (!filter.includeActive) conditions.push(hasTime);
  return queryRows<BillingClientRow>(
    db,
    sql`with billed as materialized (${billed})
      select k.id, k.name, k.timezone from ${clients} k
      where ${conditions.length > 0 ? sql.join(conditions, sql` and `) : sql`true`}
      order by lower(k.name), k.id`,
  );
}

export async function findBillingClient(
  db: Db,
  id: string,
  lock?: "no key update",
): Promise<BillingClientRow | undefined> {
  const query = db
    .select({ id: clients.id, name: clients.name, timezone: clients.timezone })
    .from(clients)
    .where(eq(clients.id, id))
    .limit(1);
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}

/**
 * A statement's cases: one array parameter built once, not one parameter per case — an `in` list of a month's
 * hundreds of cases cost drizzle a parameter object each and PostgreSQL a bind of each.
 */
export async function findBillingCases(db: Db, ids: readonly string[]): Promise<BillingCaseRow[]> {
  if (ids.length === 0) return [];
  const statement = preparedOnce(db, "billing-cases", () =>
    db
      .select({
        id: cases.id,
        caseNumber: cases.caseNumber,
        clientId: cases.clientId,
        stage: cases.stage,
        archivedAt: cases.archivedAt,
        patientFirstName: cases.patientFirstName,
        patientLastName: cases.patientLastName,
      })
      .from(cases)
      .where(sql`${cases.id} = any(${sql.placeholder("ids")}::uuid[])`)
      .orderBy(asc(cases.caseNumber))
      .prepare(""),
  );
  return statement.execute({ ids: [...ids] });
}

// ---------------------------------------------------------------------------------------------------------------
// Rates
// ---------------------------------------------------------------------------------------------------------------

/** Every own rate of these clients (a client has at most one row per month, so this stays small). */
export async function findRatesOfClients(db: Db, clientIds: readonly string[]): Promise<RateRow[]> {
  if (clientIds.length === 0) return [];
  return db
    .select()
    .from(billingRates)
    .where(inArray(billingRates.clientId, [...clientIds]))
    .orderBy(asc(billingRates.clientId), asc(billingRates.month));
}

export async function findRate(db: Db, clientId: string, month: string, lock?: "update"): Promise<RateRow | undefined> {
  const query = db
    .select()
    .from(billingRates)
    .where(and(eq(billingRates.clientId, clientId), eq(billingRates.month, month)))
    .limit(1);
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}

/** Writes the month's own rate (insert or replace); the caller holds the client's lock and checked the version. */
export async function saveRate(db: Db, values: RateValues): Promise<RateRow> {
  const { clientId: _client, month: _month, ...changes } = values;
  const [row] = await db
    .insert(billingRates)
    .values(values)
    .onConflictDoUpdate({ target: [billingRates.clientId, billingRates.month], set: changes })
    .returning();
  return row as RateRow;
}

export async function insertRateChange(db: Db, values: RateChangeValues): Promise<RateChangeRow> {
  const [row] = await db.insert(billingRateChanges).values(values).returning();
  return row as RateChangeRow;
}

// ---------------------------------------------------------------------------------------------------------------
// One case's records, for its CPT suggestion and its billing check
// ---------------------------------------------------------------------------------------------------------------

/** The live (not deleted) time logs of these cases, billable or not, oldest first. */
const liveLogSelection = {
  recordId: caseTimeLogs.recordId,
  caseId: caseTimeLogs.caseId,
  technologistSub: caseTimeLogs.technologistSub,
  technologistUsername: caseTimeLogs.technologistUsername,
  technologistName: caseTimeLogs.technologistName,
  activity: caseTimeLogs.activity,
  mode: caseTimeLogs.mode,
  video: caseTimeLogs.video,
  billable: caseTimeLogs.billable,
  channels: caseTimeLogs.channels,
  startedAt: caseTimeLogs.startedAt,
  endedAt: caseTimeLogs.endedAt,
  deleted: caseTimeLogs.deleted,
  concurrentPeak: caseTimeLogs.concurrentPeak,
} satisfies Record<keyof TimeLogRow, unknown>;

const liveLogColumn = columnsOf(liveLogSelection);

/** A live log from its row read as an array: a statement's thousands of logs skip drizzle's per-column mapping. */
function liveLogOf(row: unknown[]): TimeLogRow {
  const channels = row[liveLogColumn.channels];
  const peak = row[liveLogColumn.concurrentPeak];
  return {
    recordId: row[liveLogColumn.recordId] as string,
    caseId: row[liveLogColumn.caseId] as string,
    technologistSub: row[liveLogColumn.technologistSub] as string | null,
    technologistUsername: row[liveLogColumn.technologistUsername] as string,
    technologistName: row[liveLogColumn.technologistName] as string | null,
    activity: row[liveLogColumn.activity] as TimeLogRow["activity"],
    mode: row[liveLogColumn.mode] as TimeLogRow["mode"],
    video: row[liveLogColumn.video] as boolean,
    billable: row[liveLogColumn.billable] as boolean,
    channels: channels === null ? null : Number(channels),
    startedAt: instant(row[liveLogColumn.startedAt]),
    endedAt: instantOrNull(row[liveLogColumn.endedAt]),
    deleted: row[liveLogColumn.deleted] as boolean,
    concurrentPeak: peak === null ? null : Number(peak),
  };
}

/** The live logs of these cases, oldest first (`case_time_logs_case_idx`), in one statement built once. */
export async function findLiveTimeLogs(db: Db, caseIds: readonly string[]): Promise<TimeLogRow[]> {
  if (caseIds.length === 0) return [];
  const statement = preparedOnce(db, "live-time-logs", () =>
    prepareArrayRows(
      db,
      db
        .select(liveLogSelection)
        .from(caseTimeLogs)
        .where(
          and(
            sql`${caseTimeLogs.caseId} = any(${sql.placeholder("caseIds")}::uuid[])`,
            eq(caseTimeLogs.deleted, false),
          ),
        )
        .orderBy(asc(caseTimeLogs.startedAt), asc(caseTimeLogs.recordId))
        .getSQL(),
      liveLogOf,
    ),
  );
  return statement.execute({ caseIds: [...caseIds] });
}

/** When each live review-check event of these cases happened. */
export async function findReviewCheckTimes(
  db: Db,
  caseIds: readonly string[],
): Promise<{ caseId: string; at: Date }[]> {
  if (caseIds.length === 0) return [];
  const statement = preparedOnce(db, "review-check-times", () =>
    db
      .select({
        caseId: caseRecords.caseId,
        // Epoch seconds: both drivers hand a float8 back as a number, whatever the session's time zone.
        at: sql<number | string>`extract(epoch from (${caseRecords.data}->>'occurredAt')::timestamptz)::float8`,
      })
      .from(caseRecords)
      .where(
        and(
          sql`${caseRecords.caseId} = any(${sql.placeholder("caseIds")}::uuid[])`,
          eq(caseRecords.kind, "event"),
          eq(caseRecords.deleted, false),
          sql`${caseRecords.data}->>'type' = 'review-check'`,
        ),
      )
      .prepare(""),
  );
  const rows = await statement.execute({ caseIds: [...caseIds] });
  return rows.map((row) => ({ caseId: row.caseId, at: new Date(Number(row.at) * 1000) }));
}

/** The CPT warning ids acknowledged by the case's live billing notes (notes written before the field have none). */
export async function findAcknowledgedWarnings(db: Db, caseId: string): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select distinct jsonb_array_elements_text(r.data->'acknowledgedWarnings') as id
      from ${caseRecords} r
      where r.case_id = ${caseId} and r.kind = 'billing-note' and not r.deleted
        and jsonb_typeof(r.data->'acknowledgedWarnings') = 'array'
      order by 1`,
  );
  return rows.map((row) => row.id);
}
