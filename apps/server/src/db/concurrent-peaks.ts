import { sql } from "drizzle-orm";
import { type Db, queryRows } from "./client.js";
import { startedWithinReach } from "./time-log-overlaps.js";

/**
 * Each live time log's concurrent-patient peak (`case_time_logs.concurrent_peak`), kept on write: the most distinct
 * cases its technologist had at once, in the log's mode, during the log (its own case included, so at least 1). The
 * technologist cap (billing's CPT check, the time-logs tab) compares it with the mode's cap; counting it on every
 * read meant reading a month of every involved technologist's logs.
 *
 * A log's peak depends on its technologist's other logs of the same mode, so a write recomputes the peaks of every
 * log its old and new interval touch, under a per-technologist advisory lock (two writes for one technologist on two
 * instances run one after the other). A running log is open-ended here: it is still being worked, and any log of its
 * technologist that starts later overlaps it. Deleted logs hold no peak (null); the tab counts theirs when shown.
 * A restore, a bulk load or a database migrated from before the column fills them (`fillMissingConcurrentPeaks`).
 */

/** A log as its peak is judged: whose, on which case, when (epoch milliseconds; end null while running). */
export type PeakLog = { recordId: string; caseId: string; startMs: number; endMs: number | null };

/** A live log of one technologist and mode, with what is kept of it. */
type KeptPeakLog = PeakLog & { peak: number | null };

/** The end a running log is judged with: open-ended (the largest instant a Date holds). */
const openEnd = 8.64e15;

function endOf(log: { startMs: number; endMs: number | null }): number {
  return Math.max(log.endMs ?? openEnd, log.startMs + 1);
}

/**
 * The most distinct cases at once during `own` among `others` (the technologist's other logs of the same mode),
 * own case included. The count can only rise where a log starts, so the window's start and every start inside it
 * are enough. `ownEnd` is where the window ends (a running log's: now, or open-ended).
 */
export function peakAmong(
  own: { caseId: string; startMs: number },
  ownEnd: number,
  others: readonly PeakLog[],
): number {
  const windowStart = own.startMs;
  const windowEnd = Math.max(ownEnd, windowStart + 1);
  const instants = [
    windowStart,
    ...others.map((log) => log.startMs).filter((start) => start > windowStart && start < windowEnd),
  ];
  let peak = 1;
  for (const instant of instants) {
    const cases = new Set([own.caseId]);
    for (const log of others) {
      if (log.startMs <= instant && instant < (log.endMs ?? Number.POSITIVE_INFINITY)) cases.add(log.caseId);
    }
    peak = Math.max(peak, cases.size);
  }
  return peak;
}

/**
 * The peaks of `targets` among `group` (one technologist's live logs of one mode, each target among them or not):
 * the finished logs are sorted by start once, and a target's finished peers are found walking back from the last
 * one starting before it ends, no further than the longest finished log reaches; the running logs (a handful) are
 * peers of every target that ends after they start.
 */
export function peaksWithin(group: readonly PeakLog[], targets: readonly PeakLog[]): Map<string, number> {
  const finished = group.filter((log) => log.endMs !== null).sort((left, right) => left.startMs - right.startMs);
  const running = group.filter((log) => log.endMs === null);
  let longest = 0;
  for (const log of finished) longest = Math.max(longest, endOf(log) - log.startMs);
  const peaks = new Map<string, number>();
  for (const target of targets) {
    const start = target.startMs;
    const end = endOf(target);
    const peers = running.filter((other) => other.recordId !== target.recordId && other.startMs < end);
    for (let index = lastStartingBefore(finished, end); index >= 0; index--) {
      const other = finished[index] as PeakLog;
      if (other.startMs < start - longest) break;
      if (other.recordId === target.recordId || (other.endMs as number) <= start) continue;
      peers.push(other);
    }
    peaks.set(target.recordId, peakAmong(target, end, peers));
  }
  return peaks;
}

function lastStartingBefore(logs: readonly PeakLog[], limit: number): number {
  let low = 0;
  let high = logs.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((logs[middle] as PeakLog).startMs < limit) low = middle + 1;
    else high = middle;
  }
  return low - 1;
}

const peakColumns = sql`l.record_id as "recordId", l.case_id as "caseId", l.concurrent_peak as peak,
  floor(extract(epoch from l.started_at) * 1000)::float8 as "startMs",
  floor(extract(epoch from l.ended_at) * 1000)::float8 as "endMs"`;

function toKept(row: KeptPeakLog): KeptPeakLog {
  // biome-ignore lint/plugin/leading-spread-then-keys: the row's own fields, as numbers (a row may carry mode too)
  return {
    ...row,
    startMs: Number(row.startMs),
    endMs: row.endMs === null ? null : Number(row.endMs),
    peak: row.peak === null ? null : Number(row.peak),
  };
}

/** The technologist's live logs of `mode` that overlap [fromMs, toMs) (running logs open-ended). */
async function findGroupOverlapping(
  db: Db,
  key: GroupKey,
  fromMs: number,
  toMs: number,
  now: Date,
): Promise<KeptPeakLog[]> {
  const from = new Date(fromMs);
  const before = toMs >= openEnd ? sql`'infinity'::timestamptz` : sql`${new Date(toMs).toISOString()}::timestamptz`;
  const rows = await queryRows<KeptPeakLog>(
    db,
    sql`select ${peakColumns} from case_time_logs l
      where l.technologist_username = ${key.username} and l.mode = ${key.mode} and not l.deleted
        and l.started_at < ${before}
        and ${startedWithinReach(sql`l.started_at`, from, now)}
        and (l.ended_at is null or l.ended_at > ${from.toISOString()}::timestamptz)`,
  );
  return rows.map(toKept);
}

async function writePeaks(db: Db, peaks: ReadonlyMap<string, number>): Promise<void> {
  const ids = [...peaks.keys()];
  for (let offset = 0; offset < ids.length; offset += 5_000) {
    const chunk = ids.slice(offset, offset + 5_000);
    await db.execute(
      sql`update case_time_logs t set concurrent_peak = v.peak
        from unnest(${sql.param(chunk)}::uuid[], ${sql.param(chunk.map((id) => peaks.get(id) as number))}::int[])
          as v(id, peak)
        where t.record_id = v.id`,
    );
  }
}

type GroupKey = { username: string; mode: string };

/** The projection's fields a peak depends on. */
export type PeakSource = {
  recordId: string;
  caseId: string;
  technologistUsername: string;
  mode: string;
  startedAt: Date;
  endedAt?: Date | null | undefined;
  deleted?: boolean | null | undefined;
};

function sameForPeaks(before: PeakSource, after: PeakSource): boolean {
  return (
    before.caseId === after.caseId &&
    before.technologistUsername === after.technologistUsername &&
    before.mode === after.mode &&
    Boolean(before.deleted) === Boolean(after.deleted) &&
    before.startedAt.getTime() === after.startedAt.getTime() &&
    (before.endedAt?.getTime() ?? null) === (after.endedAt?.getTime() ?? null)
  );
}

/** Serialises peak writes per technologist, across instances, until the transaction ends. */
async function lockTechnologists(db: Db, usernames: readonly string[]): Promise<void> {
  for (const username of [...new Set(usernames)].sort()) {
    await db.execute(sql`select pg_advisory_xact_lock(hashtext('vigil.concurrent-peaks'), hashtext(${username}))`);
  }
}

function keyOf(source: PeakSource): string {
  return `${source.technologistUsername}\u0000${source.mode}`;
}

function asPeakLog(source: PeakSource): PeakLog {
  return {
    recordId: source.recordId,
    caseId: source.caseId,
    startMs: source.startedAt.getTime(),
    endMs: source.endedAt?.getTime() ?? null,
  };
}

/** The peaks of `targets` (all of one technologist and mode), counted among that group's live logs now. */
async function countWithinGroup(db: Db, key: GroupKey, targets: readonly PeakLog[], now: Date) {
  const from = Math.min(...targets.map((log) => log.startMs));
  const to = Math.max(...targets.map(endOf));
  return peaksWithin(await findGroupOverlapping(db, key, from, to, now), targets);
}

/**
 * The peaks of these logs counted from the logs as they are (running logs open-ended): for a log without a kept
 * peak — a deleted one the time-logs tab shows, as if it were live.
 */
export async function countConcurrentPeaks(db: Db, sources: readonly PeakSource[]): Promise<Map<string, number>> {
  const now = new Date();
  const groups = new Map<string, { key: GroupKey; targets: PeakLog[] }>();
  for (const source of sources) {
    const group = groups.get(keyOf(source));
    if (group) group.targets.push(asPeakLog(source));
    else
      groups.set(keyOf(source), {
        key: { username: source.technologistUsername, mode: source.mode },
        targets: [asPeakLog(source)],
      });
  }
  const peaks = new Map<string, number>();
  for (const { key, targets } of groups.values()) {
    for (const [recordId, peak] of await countWithinGroup(db, key, targets, now)) peaks.set(recordId, peak);
  }
  return peaks;
}

/**
 * Moves the peaks from the log's old projection row (`before`, undefined for a new log) to its new one, in the
 * caller's transaction, after the row is written: every live log of the same technologist and mode that the old
 * or the new interval overlaps is counted again (the log itself included, unless it is now deleted).
 */
export async function keepConcurrentPeaks(db: Db, before: PeakSource | undefined, after: PeakSource): Promise<void> {
  if (before && sameForPeaks(before, after)) return;
  // Only bounds the index read (how far back a running log can have started); any instant gives the same rows.
  const now = new Date();
  const sources = [before, after].filter((source): source is PeakSource => source !== undefined);
  await lockTechnologists(
    db,
    sources.map((source) => source.technologistUsername),
  );
  const touched = new Map<string, { key: GroupKey; fromMs: number; toMs: number }>();
  for (const source of sources) {
    const log = asPeakLog(source);
    const seen = touched.get(keyOf(source));
    touched.set(keyOf(source), {
      key: { username: source.technologistUsername, mode: source.mode },
      fromMs: Math.min(log.startMs, seen?.fromMs ?? log.startMs),
      toMs: Math.max(endOf(log), seen?.toMs ?? 0),
    });
  }
  const changed = new Map<string, number>();
  for (const { key, fromMs, toMs } of touched.values()) {
    const affected = await findGroupOverlapping(db, key, fromMs, toMs, now);
    if (affected.length === 0) continue;
    const kept = new Map(affected.map((log) => [log.recordId, log.peak]));
    for (const [recordId, peak] of await countWithinGroup(db, key, affected, now)) {
      if (kept.get(recordId) !== peak) changed.set(recordId, peak);
    }
  }
  await writePeaks(db, changed);
  if (after.deleted) {
    await db.execute(sql`update case_time_logs set concurrent_peak = null where record_id = ${after.recordId}`);
  }
}

/** Every live log of one technologist, grouped by mode; each group sorted by start. */
async function findTechnologistLogs(db: Db, username: string): Promise<Map<string, KeptPeakLog[]>> {
  const rows = await queryRows<KeptPeakLog & { mode: string }>(
    db,
    sql`select ${peakColumns}, l.mode from case_time_logs l
      where l.technologist_username = ${username} and not l.deleted order by l.mode, l.started_at`,
  );
  const groups = new Map<string, KeptPeakLog[]>();
  for (const row of rows) {
    const log = toKept(row);
    const group = groups.get(row.mode);
    if (group) group.push(log);
    else groups.set(row.mode, [log]);
  }
  return groups;
}

/** The peaks of one technologist's live logs, counted from scratch, beside what is kept. */
async function recountTechnologist(db: Db, username: string): Promise<{ log: KeptPeakLog; expected: number }[]> {
  const counted: { log: KeptPeakLog; expected: number }[] = [];
  for (const group of (await findTechnologistLogs(db, username)).values()) {
    const peaks = peaksWithin(group, group);
    for (const log of group) counted.push({ log, expected: peaks.get(log.recordId) as number });
  }
  return counted;
}

async function technologistsWithLogs(db: Db, onlyMissing: boolean): Promise<string[]> {
  const rows = await queryRows<{ username: string }>(
    db,
    onlyMissing
      ? sql`select distinct technologist_username as username from case_time_logs
          where concurrent_peak is null and not deleted`
      : sql`select distinct technologist_username as username from case_time_logs`,
  );
  return rows.map((row) => row.username).sort();
}

/**
 * Counts every technologist's peaks from their logs and keeps them (a bulk load, a restore; `onlyMissing`: only the
 * technologists with a live log without one, as after the migration that added them). Answers how many were set.
 */
export async function recomputeConcurrentPeaks(db: Db, options: { onlyMissing?: boolean } = {}): Promise<number> {
  let written = 0;
  for (const username of await technologistsWithLogs(db, options.onlyMissing ?? false)) {
    await db.transaction(async (tx) => {
      await lockTechnologists(tx, [username]);
      const peaks = new Map<string, number>();
      for (const { log, expected } of await recountTechnologist(tx, username)) {
        if (log.peak !== expected) peaks.set(log.recordId, expected);
      }
      await writePeaks(tx, peaks);
      await tx.execute(
        sql`update case_time_logs set concurrent_peak = null
          where technologist_username = ${username} and deleted and concurrent_peak is not null`,
      );
      written += peaks.size;
    });
  }
  return written;
}

/** After the migrations: fills the peaks of live logs that have none (cheap when none is missing: a partial index). */
export async function fillMissingConcurrentPeaks(db: Db): Promise<number> {
  const [row] = await queryRows<{ missing: boolean }>(
    db,
    sql`select exists (select 1 from case_time_logs where concurrent_peak is null and not deleted) as missing`,
  );
  if (!row?.missing) return 0;
  return recomputeConcurrentPeaks(db, { onlyMissing: true });
}

/** One log whose kept peak differs from its count: what is kept (null: none) and what the logs make (null: none). */
export type PeakDifference = { recordId: string; kept: number | null; expected: number | null };

/** Compares every kept peak with a count from the logs; no rows means they agree. */
export async function compareConcurrentPeaks(db: Db): Promise<PeakDifference[]> {
  const differences: PeakDifference[] = [];
  for (const username of await technologistsWithLogs(db, false)) {
    for (const { log, expected } of await recountTechnologist(db, username)) {
      if (log.peak !== expected) differences.push({ recordId: log.recordId, kept: log.peak, expected });
    }
  }
  const deletedWithPeak = await queryRows<{ recordId: string; peak: number }>(
    db,
    sql`select record_id as "recordId", concurrent_peak as peak from case_time_logs
      where deleted and concurrent_peak is not null order by record_id`,
  );
  for (const row of deletedWithPeak) {
    differences.push({ recordId: row.recordId, kept: Number(row.peak), expected: null });
  }
  return differences;
}

/**
 * The peaks of these time logs (record ids): the kept one of each live log, a count for a log without one (a
 * deleted log, as if it were live). What the time-logs tab shows beside each log.
 */
export async function findConcurrentPeaks(db: Db, recordIds: readonly string[]): Promise<Map<string, number>> {
  if (recordIds.length === 0) return new Map();
  const rows = await queryRows<PeakSource & { peak: number | null }>(
    db,
    sql`select record_id as "recordId", case_id as "caseId", technologist_username as "technologistUsername", mode,
        started_at as "startedAt", ended_at as "endedAt", deleted, concurrent_peak as peak
      from case_time_logs where record_id = any(${sql.param([...recordIds])}::uuid[])`,
  );
  const peaks = new Map<string, number>();
  const missing: PeakSource[] = [];
  for (const row of rows) {
    if (row.peak === null) {
      // biome-ignore lint/plugin/leading-spread-then-keys: the row's own times, as Dates
      missing.push({ ...row, startedAt: new Date(row.startedAt), endedAt: row.endedAt ? new Date(row.endedAt) : null });
    } else peaks.set(row.recordId, Number(row.peak));
  }
  for (const [recordId, peak] of await countConcurrentPeaks(db, missing)) peaks.set(recordId, peak);
  return peaks;
}
