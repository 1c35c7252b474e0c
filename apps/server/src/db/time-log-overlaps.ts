import { type SQL, sql } from "drizzle-orm";
import { type Db, queryRows } from "./client.js";
import { caseTimeLogs } from "./schema.js";

/**
 * Interval queries over `case_time_logs` ("the logs that overlap [from, to)") know `started_at < to`, but a log
 * overlapping `from` may have started any time before it, so an index on `started_at` alone would read every older
 * log. The reach bounds that look-back: a finished log lasted at most as long as the longest finished one, and a
 * running log is at most as old as the oldest running one. Both are single index probes (`case_time_logs_duration_idx`,
 * `case_time_logs_running_start_idx`) inside the same statement, so the bound comes from the same snapshot as the
 * rows it selects and can never leave out a log that overlaps. One forgotten log that ran for weeks widens the
 * look-back for everyone — slower, never wrong.
 */
export function timeLogReach(now: Date): SQL {
  return sql`(select greatest(
      (select max(t.ended_at - t.started_at) from case_time_logs t where t.ended_at is not null),
      (select ${now.toISOString()}::timestamptz - min(t.started_at) from case_time_logs t where t.ended_at is null),
      interval '0'))`;
}

/**
 * `startedAt >= least(from, now) - reach`: true of every log that overlaps an interval beginning at `from` (a
 * running log counts to `now`; a window in the future still sees it, hence the `least`). Add it beside the
 * condition `startedAt < to` so the index on `started_at` reads only the logs that can overlap.
 */
export function startedWithinReach(startedAt: SQL, from: SQL | Date, now: Date): SQL {
  const start = from instanceof Date ? sql`${from.toISOString()}::timestamptz` : from;
  return sql`${startedAt} >= least(${start}, ${now.toISOString()}::timestamptz) - ${timeLogReach(now)}`;
}

/** What concurrency is judged from: whose log, on which case, in which mode, when (epoch milliseconds). */
export type OverlappingLog = {
  recordId: string;
  caseId: string;
  technologistUsername: string;
  mode: string;
  startMs: number;
  /** null while running. */
  endMs: number | null;
};

/**
 * Live logs of these technologists (optionally only of these modes), on any case, that overlap [from, to) (a
 * running log counting to `now`): what their concurrent patients are counted from, by the time-log screens and by
 * the billing check alike. Reads `case_time_logs_technologist_idx` between `to` and the reach before `from`.
 * A month of a busy client touches tens of thousands of its technologists' logs, so only the columns concurrency
 * needs are read, with times as epoch milliseconds: numbers, not a Date per field for the collector to sweep.
 */
export async function findTechnologistLogsOverlapping(
  db: Db,
  usernames: readonly string[],
  window: { from: Date; to: Date; now: Date; modes?: readonly string[] },
): Promise<OverlappingLog[]> {
  if (usernames.length === 0 || window.modes?.length === 0) return [];
  const { from, to, now } = window;
  const rows = await queryRows<OverlappingLog>(
    db,
    sql`select l.record_id as "recordId", l.case_id as "caseId", l.technologist_username as "technologistUsername",
        l.mode, floor(extract(epoch from l.started_at) * 1000)::float8 as "startMs",
        floor(extract(epoch from l.ended_at) * 1000)::float8 as "endMs"
      from ${caseTimeLogs} l
      where l.technologist_username = any(${sql.param([...usernames])}::text[])
        ${window.modes ? sql`and l.mode = any(${sql.param([...window.modes])}::text[])` : sql``}
        and not l.deleted
        and l.started_at < ${to.toISOString()}::timestamptz
        and ${startedWithinReach(sql`l.started_at`, from, now)}
        and (l.ended_at is null or l.ended_at > ${from.toISOString()}::timestamptz)`,
  );
  // Whole milliseconds, as a Date holds them (the floor is taken on the exact numeric epoch, so a log that ends
  // when another starts never looks like it overlaps it by a rounding error).
  return rows.map((row) => ({
    recordId: row.recordId,
    caseId: row.caseId,
    technologistUsername: row.technologistUsername,
    mode: row.mode,
    startMs: Number(row.startMs),
    endMs: row.endMs === null ? null : Number(row.endMs),
  }));
}
