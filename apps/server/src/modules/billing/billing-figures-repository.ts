import type { CaseStage } from "@vigil/contract";
import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { queryRows } from "../../db/client.js";

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

/** The windows with their first and last calendar day in the client's zone (its start, its last instant). */
function windowsWithDays(windows: readonly ClientWindow[]): SQL {
  return sql`select u.client_id, u.key, u.start_at, u.end_at,
      (u.start_at at time zone k.timezone)::date as first_day,
      ((u.end_at - interval '1 microsecond') at time zone k.timezone)::date as last_day
    from unnest(
      ${sql.param(windows.map((window) => window.clientId))}::uuid[],
      ${sql.param(windows.map((window) => window.key))}::text[],
      ${sql.param(windows.map((window) => window.start.toISOString()))}::timestamptz[],
      ${sql.param(windows.map((window) => window.end.toISOString()))}::timestamptz[]
    ) as u(client_id, key, start_at, end_at)
    join clients k on k.id = u.client_id`;
}

/**
 * Per (window, case): whole seconds, distinct logs with a whole second, and whether one of them runs. Reads the
 * kept days and the carried seconds one window at a time through the (client, day) indexes (a lateral subquery,
 * which the planner cannot turn into a hash join pairing every kept row with each of its client's windows), and
 * the running logs. Archived cases are left out: a few lines (a statement) look their case up by key; many lines
 * (an overview's months) hash the cases once, which is cheaper than a probe per line.
 */
function secondsByCase(windows: readonly ClientWindow[], now: Date, caseId?: string): SQL {
  const nowAt = sql`${now.toISOString()}::timestamptz`;
  const ofCase = (column: SQL) => (caseId ? sql`and ${column} = ${caseId}` : sql``);
  const caseOf =
    windows.length > manyWindows
      ? sql`join (select c.id, c.stage from cases c where c.archived_at is null offset 0) c on c.id = s."caseId"`
      : sql`cross join lateral (select c.stage from cases c where c.id = s."caseId" and c.archived_at is null offset 0) c`;
  return sql`with w as materialized (${windowsWithDays(windows)}),
    parts as (
      select w.client_id, w.key, d.case_id, d.seconds, d.logs, false as running
        from w cross join lateral (
          select f.case_id, sum(f.seconds)::float8 as seconds,
              (sum(f.log_count) - coalesce(sum(f.continued_count) filter (where f.day > w.first_day), 0))::int as logs
            from billable_seconds_daily f
            where f.client_id = w.client_id and f.day >= w.first_day and f.day <= w.last_day ${ofCase(sql`f.case_id`)}
            group by f.case_id) d
      union all
      select w.client_id, w.key, r.case_id, r.seconds, r.logs, false
        from w cross join lateral (
          select r.case_id, count(*)::float8 as seconds, (count(*) filter (where r.counted_alone))::int as logs
            from billable_second_carries r
            where r.client_id = w.client_id and r.last_day >= w.first_day and r.last_day <= w.last_day
              and r.first_day >= w.first_day ${ofCase(sql`r.case_id`)}
            group by r.case_id) r
      union all
      select w.client_id, w.key, l.case_id,
          floor(extract(epoch from least(${nowAt}, w.end_at) - greatest(l.started_at, w.start_at)))::float8, 1, true
        from case_time_logs l join cases rc on rc.id = l.case_id join w on w.client_id = rc.client_id
        where l.ended_at is null and l.billable and not l.deleted ${ofCase(sql`l.case_id`)}
          and l.started_at < w.end_at and ${nowAt} > w.start_at
          and least(${nowAt}, w.end_at) - greatest(l.started_at, w.start_at) >= interval '1 second'
    )
    select s.*, c.stage
      from (select p.client_id as "clientId", p.key, p.case_id as "caseId", sum(p.seconds)::float8 as seconds,
          sum(p.logs)::int as "logCount", bool_or(p.running) as running
        from parts p group by p.client_id, p.key, p.case_id having sum(p.logs) > 0) s
      ${caseOf}`;
}

/** Beyond this many windows (a year of every client's months) the lines are many: the cases are hashed once. */
const manyWindows = 200;

type CaseSecondsRow = Omit<WindowCaseSeconds, "seconds" | "logCount"> & {
  seconds: number | string;
  logCount: number | string;
};

/** Whole billable seconds per (window, case), with the number of logs and whether one of them still runs. */
export async function sumKeptSecondsByCase(
  db: Db,
  windows: readonly ClientWindow[],
  now: Date,
  filter: { caseId?: string | undefined } = {},
): Promise<WindowCaseSeconds[]> {
  if (windows.length === 0) return [];
  const rows = await queryRows<CaseSecondsRow>(db, secondsByCase(windows, now, filter.caseId));
  return rows.map((row) => ({
    ...row,
    stage: row.stage as CaseStage,
    seconds: Number(row.seconds),
    logCount: Number(row.logCount),
  }));
}

/** Whole billable seconds per window key, with the cases and logs in each (a report without a technologist). */
export async function sumKeptSecondsForReport(
  db: Db,
  windows: readonly ClientWindow[],
  now: Date,
): Promise<ReportSeconds[]> {
  if (windows.length === 0) return [];
  const rows = await queryRows<{ key: string; seconds: number | string; caseCount: number; logCount: number }>(
    db,
    sql`select s.key, sum(s.seconds)::float8 as seconds, count(*)::int as "caseCount", sum(s."logCount")::int as "logCount"
      from (${secondsByCase(windows, now)}) s group by s.key`,
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
      from (${secondsByCase(periods, now)}) s`,
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
