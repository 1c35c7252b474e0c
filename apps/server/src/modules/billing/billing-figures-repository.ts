import type { CaseStage } from "@vigil/contract";
import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { queryRows } from "../../db/client.js";
import { amountCentsForSql, hundredthsFromSecondsSql } from "./billing-money.js";

/**
 * Billable seconds from the figures kept on write (db/billable-figures.ts): a window of a client's calendar is a run
 * of whole days, so its seconds are the sum of its days' kept seconds (plus the carried seconds of logs lying wholly
 * in it) — an index read on (client, day) instead of a sum over every log. Running logs are not kept: they are
 * added here, counted to `now`, from the projection's small running-log index. The answers equal
 * billing-repository.ts's sums over the logs, which still serve the technologist's reports (the figures have no
 * technologist); archived cases are left out as there.
 */

/** A half-open window [start, end) of one client, named by `key` (a month, day or week key). */
export type ClientWindow = { clientId: string; key: string; start: Date; end: Date };

export type WindowCaseSeconds = {
  clientId: string;
  key: string;
  caseId: string;
  stage: CaseStage;
  seconds: number;
  logCount: number;
  running: boolean;
};

export type ReportSeconds = { key: string; label: string | null; seconds: number; caseCount: number; logCount: number };

/**
 * The windows with their first and last calendar day in the client's zone (its start, its last instant), and the
 * hourly rate in cents that applies to each (null: none, or not asked for).
 */
function windowsWithDays(windows: readonly (ClientWindow & { rateCents?: bigint | null })[]): SQL {
  const rates = windows.map((window) => (window.rateCents == null ? null : String(window.rateCents)));
  return sql`select u.client_id, u.key, u.start_at, u.end_at, u.rate_cents,
      (u.start_at at time zone k.timezone)::date as first_day,
      ((u.end_at - interval '1 microsecond') at time zone k.timezone)::date as last_day
    from unnest(
      ${sql.param(windows.map((window) => window.clientId))}::uuid[],
      ${sql.param(windows.map((window) => window.key))}::text[],
      ${sql.param(windows.map((window) => window.start.toISOString()))}::timestamptz[],
      ${sql.param(windows.map((window) => window.end.toISOString()))}::timestamptz[],
      ${sql.param(rates)}::numeric[]
    ) as u(client_id, key, start_at, end_at, rate_cents)
    join clients k on k.id = u.client_id`;
}

/**
 * The running logs of the windows, per (window, case): their whole seconds counted to `now` (each log's floored on
 * its own, as billing counts) and how many there are, with the window's rate and first day.
 */
function runningByCase(nowAt: SQL): SQL {
  return sql`select w.client_id, w.key, w.rate_cents, w.first_day, l.case_id,
      sum(floor(extract(epoch from least(${nowAt}, w.end_at) - greatest(l.started_at, w.start_at))))::float8 as seconds,
      count(*)::int as logs
    from case_time_logs l join cases rc on rc.id = l.case_id join w on w.client_id = rc.client_id
    where l.ended_at is null and l.billable and not l.deleted
      and l.started_at < w.end_at and ${nowAt} > w.start_at
      and least(${nowAt}, w.end_at) - greatest(l.started_at, w.start_at) >= interval '1 second'
    group by w.client_id, w.key, w.rate_cents, w.first_day, l.case_id`;
}

/**
 * Per (window, case) of arbitrary windows (runs of whole days): the kept days and the carried seconds, read one
 * window at a time through the (client, day) indexes (a lateral subquery, which the planner cannot turn into a hash
 * join pairing every kept row with each of its client's windows).
 */
function keptByCaseOfDays(): SQL {
  return sql`select w.client_id, w.key, d.case_id, d.seconds, d.logs
      from w cross join lateral (
        select f.case_id, sum(f.seconds)::float8 as seconds,
            (sum(f.log_count) - coalesce(sum(f.continued_count) filter (where f.day > w.first_day), 0))::int as logs
          from billable_seconds_daily f
          where f.client_id = w.client_id and f.day >= w.first_day and f.day <= w.last_day
          group by f.case_id) d
    union all
    select w.client_id, w.key, r.case_id, r.seconds, r.logs
      from w cross join lateral (
        select r.case_id, count(*)::float8 as seconds, (count(*) filter (where r.counted_alone))::int as logs
          from billable_second_carries r
          where r.client_id = w.client_id and r.last_day >= w.first_day and r.last_day <= w.last_day
            and r.first_day >= w.first_day
          group by r.case_id) r`;
}

/** Per (window, case) of calendar-month windows: one kept monthly row each, already summed. */
function keptByCaseOfMonths(): SQL {
  return sql`select w.client_id, w.key, m.case_id, m.seconds::float8 as seconds, m.log_count as logs
    from w cross join lateral (
      select m.case_id, m.seconds, m.log_count from billable_seconds_monthly m
        where m.client_id = w.client_id and m.month = w.first_day) m`;
}

/**
 * Per (window, case): whole seconds, distinct logs with a whole second, and whether one of them runs — the kept
 * figures (by month for calendar months, by the day rows for one-day windows, else days and carries summed) plus
 * the running logs. Archived cases are left out: lines that carry their stage (a statement's) look their case up
 * by key; reads that need no stage (`stages: false`, the reports, with thousands of lines) hash only the few
 * archived ones.
 */
function secondsByCase(
  windows: readonly ClientWindow[],
  now: Date,
  options: { windows?: "months" | "days"; stages?: boolean } = {},
): SQL {
  const nowAt = sql`${now.toISOString()}::timestamptz`;
  const caseOf =
    options.stages === false
      ? sql`cross join (select null::text as stage) c
          where s."caseId" not in (select a.id from cases a where a.archived_at is not null)`
      : sql`cross join lateral (select c.stage from cases c where c.id = s."caseId" and c.archived_at is null offset 0) c`;
  // Month rows, and the day rows of one-day windows, are one per (window, case) already: only the few running logs
  // are matched to them, not every row hashed into groups (a log's carried second never lies within one day).
  const kept =
    options.windows === "months"
      ? keptByCaseOfMonths()
      : options.windows === "days"
        ? sql`select w.client_id, w.key, f.case_id, f.seconds::float8 as seconds, f.log_count as logs
            from w join billable_seconds_daily f on f.client_id = w.client_id and f.day = w.first_day`
        : sql`select k.client_id, k.key, k.case_id, sum(k.seconds)::float8 as seconds, sum(k.logs)::int as logs
            from (${keptByCaseOfDays()}) k group by k.client_id, k.key, k.case_id`;
  return sql`with w as materialized (${windowsWithDays(windows)}),
    kept as (${kept}),
    running as (${runningByCase(nowAt)})
    select s.*, c.stage
      from (select coalesce(k.client_id, r.client_id) as "clientId", coalesce(k.key, r.key) as key,
          coalesce(k.case_id, r.case_id) as "caseId", coalesce(k.seconds, 0) + coalesce(r.seconds, 0) as seconds,
          (coalesce(k.logs, 0) + coalesce(r.logs, 0))::int as "logCount", r.case_id is not null as running
        from kept k full join running r on r.client_id = k.client_id and r.key = k.key and r.case_id = k.case_id
        where coalesce(k.logs, 0) + coalesce(r.logs, 0) > 0) s
      ${caseOf}`;
}

type CaseSecondsRow = Omit<WindowCaseSeconds, "seconds" | "logCount"> & {
  seconds: number | string;
  logCount: number | string;
};

/**
 * Whole billable seconds per (window, case) of any windows of whole days, from the kept days and carries: the lines
 * the reports total, which billable-figures-consistency.test.ts holds equal to the sums over the logs.
 */
export async function sumKeptSecondsByCase(
  db: Db,
  windows: readonly ClientWindow[],
  now: Date,
): Promise<WindowCaseSeconds[]> {
  if (windows.length === 0) return [];
  return caseSeconds(await queryRows<CaseSecondsRow>(db, secondsByCase(windows, now)));
}

/**
 * Whole billable seconds per (month, case), with the number of logs and whether one of them still runs. Each window
 * must be a calendar month of its client's zone (`monthWindow`): it is read from the kept monthly rows.
 */
export async function sumKeptMonthSecondsByCase(
  db: Db,
  months: readonly ClientWindow[],
  now: Date,
): Promise<WindowCaseSeconds[]> {
  if (months.length === 0) return [];
  return caseSeconds(await queryRows<CaseSecondsRow>(db, secondsByCase(months, now, { windows: "months" })));
}

function caseSeconds(rows: CaseSecondsRow[]): WindowCaseSeconds[] {
  return rows.map((row) => ({
    clientId: row.clientId,
    key: row.key,
    caseId: row.caseId,
    seconds: Number(row.seconds),
    logCount: Number(row.logCount),
    running: row.running,
    stage: row.stage as CaseStage,
  }));
}

/** A client month's totals: hundredths of an hour and cents summed over its cases' rounded lines. */
export type MonthTotals = {
  clientId: string;
  key: string;
  hundredths: number;
  /** Null when the month has no rate. */
  cents: bigint | null;
  caseCount: number;
  running: boolean;
};

/**
 * The totals of each client month (a calendar month of its zone, `monthWindow`) with the hourly rate in cents that
 * applies to it (null: none): every case's line rounded as a statement rounds it (billing-money.ts's rules, in SQL)
 * and summed in the database, so a year of every client's months — some 50,000 lines — crosses the wire as one row
 * per month. Months without billable time have no row.
 */
export async function sumKeptMonthTotals(
  db: Db,
  months: readonly (ClientWindow & { rateCents: bigint | null })[],
  now: Date,
): Promise<MonthTotals[]> {
  if (months.length === 0) return [];
  const nowAt = sql`${now.toISOString()}::timestamptz`;
  const archived = sql`(select a.id from cases a where a.archived_at is not null)`;
  const cents = (hundredths: SQL) => amountCentsForSql(hundredths, sql`rate_cents`);
  // Each window's kept lines are totalled inside its own index read (no sort or hash of ~50,000 lines); the few
  // cases with a running log then replace their kept line by the line with the running seconds added. The few
  // archived cases are hashed once (NOT IN a subquery), not probed per line.
  const rows = await queryRows<{
    clientId: string;
    key: string;
    hundredths: string;
    cents: string | null;
    caseCount: number;
    running: boolean;
  }>(
    db,
    sql`with w as materialized (${windowsWithDays(months)}),
      kept as (
        select w.client_id, w.key, w.rate_cents, t.hundredths, t.cents, t.cases
          from w cross join lateral (
            select sum(x.hundredths) as hundredths, sum(${amountCentsForSql(sql`x.hundredths`, sql`w.rate_cents`)}) as cents,
                count(*) as cases
              from (select ${hundredthsFromSecondsSql(sql`m.seconds`)} as hundredths from billable_seconds_monthly m
                  where m.client_id = w.client_id and m.month = w.first_day and m.log_count > 0
                    and m.case_id not in ${archived}) x) t),
      running as (${runningByCase(nowAt)}),
      live as (
        select r.client_id, r.key, r.rate_cents,
            ${hundredthsFromSecondsSql(sql`coalesce(m.seconds, 0) + r.seconds`)} as whole,
            case when m.log_count > 0 then ${hundredthsFromSecondsSql(sql`m.seconds`)} end as kept
          from running r left join billable_seconds_monthly m on m.case_id = r.case_id and m.month = r.first_day
          where r.case_id not in ${archived}),
      corrections as (
        select client_id, key, sum(whole - coalesce(kept, 0)) as hundredths,
            sum(${cents(sql`whole`)} - coalesce(${cents(sql`kept`)}, 0)) as cents,
            count(*) filter (where kept is null) as cases
          from live group by client_id, key)
      select k.client_id as "clientId", k.key,
          (coalesce(k.hundredths, 0) + coalesce(c.hundredths, 0))::text as hundredths,
          case when k.rate_cents is not null then (coalesce(k.cents, 0) + coalesce(c.cents, 0))::text end as cents,
          (k.cases + coalesce(c.cases, 0))::int as "caseCount", c.client_id is not null as running
        from kept k left join corrections c on c.client_id = k.client_id and c.key = k.key
        where k.cases + coalesce(c.cases, 0) > 0`,
  );
  return rows.map((row) => ({
    clientId: row.clientId,
    key: row.key,
    hundredths: Number(row.hundredths),
    cents: row.cents === null ? null : BigInt(row.cents),
    caseCount: Number(row.caseCount),
    running: row.running,
  }));
}

/**
 * Whole billable seconds per window key, with the cases and logs in each (a report without a technologist); `days`:
 * every window is one calendar day of its client (the report by day), read as the kept day rows themselves.
 */
export async function sumKeptSecondsForReport(
  db: Db,
  windows: readonly ClientWindow[],
  now: Date,
  options: { days?: boolean } = {},
): Promise<ReportSeconds[]> {
  if (windows.length === 0) return [];
  const lines = secondsByCase(windows, now, { stages: false, ...(options.days ? { windows: "days" } : {}) });
  const rows = await queryRows<{ key: string; seconds: number | string; caseCount: number; logCount: number }>(
    db,
    sql`select s.key, sum(s.seconds)::float8 as seconds, count(*)::int as "caseCount", sum(s."logCount")::int as "logCount"
      from (${lines}) s group by s.key`,
  );
  return rows.map((row) => ({
    key: row.key,
    label: null,
    seconds: Number(row.seconds),
    caseCount: Number(row.caseCount),
    logCount: Number(row.logCount),
  }));
}

/** Distinct cases and logs with billable time in the windows (one per client: a report's whole period). */
export async function countKeptInPeriods(
  db: Db,
  periods: readonly ClientWindow[],
  now: Date,
): Promise<{ caseCount: number; logCount: number }> {
  if (periods.length === 0) return { caseCount: 0, logCount: 0 };
  const [row] = await queryRows<{ caseCount: number; logCount: number | null }>(
    db,
    sql`select count(*)::int as "caseCount", sum(s."logCount")::int as "logCount"
      from (${secondsByCase(periods, now, { stages: false })}) s`,
  );
  return { caseCount: Number(row?.caseCount ?? 0), logCount: Number(row?.logCount ?? 0) };
}

/**
 * The ids of the clients with billable time of cases not archived near [since, until): a kept day within a day of
 * it (any zone is within a day of UTC), a carried second ending there, or a running log begun before `until`. The
 * exact cut into each client's windows happens afterwards, as with billing-repository's search over the logs.
 */
export function clientsWithKeptTime(filter: { since: Date; until: Date; clientId?: string | undefined }): SQL {
  const first = sql`(${filter.since.toISOString()}::timestamptz at time zone 'UTC')::date - 1`;
  const last = sql`(${filter.until.toISOString()}::timestamptz at time zone 'UTC')::date + 1`;
  const ofClient = filter.clientId ? sql`and k.id = ${filter.clientId}` : sql``;
  return sql`select k.id as client_id from clients k
    where (exists (select 1 from billable_seconds_daily f join cases c on c.id = f.case_id and c.archived_at is null
          where f.client_id = k.id and f.day >= ${first} and f.day <= ${last})
        or exists (select 1 from billable_second_carries r join cases c on c.id = r.case_id and c.archived_at is null
          where r.client_id = k.id and r.last_day >= ${first} and r.first_day <= ${last})
        or exists (select 1 from case_time_logs l join cases c on c.id = l.case_id and c.archived_at is null
          where c.client_id = k.id and l.ended_at is null and l.billable and not l.deleted
            and l.started_at < ${filter.until.toISOString()}::timestamptz))
      ${ofClient}`;
}
