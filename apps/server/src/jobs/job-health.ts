import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../db/client.js";

export type JobKindHealth = {
  kind: string;
  /** Waiting, due or not yet (a retry's back-off, a future run). */
  waiting: number;
  running: number;
  failedLastDay: number;
  /** How long the oldest due waiting job has waited past its time; null when none is due. */
  oldestWaitingMs: number | null;
  /** The kind's limit for that wait (undefined: none set, or a kind this instance does not run). */
  maxWaitMs: number | undefined;
  /** The oldest due job waited longer than the kind's limit: no instance is running this kind. */
  overdue: boolean;
};

/**
 * The queue per kind as the administrators' view and the self-check see it: every registered kind (zeros when it
 * has no jobs), and any other kind still holding unfinished or recently failed jobs.
 */
export async function readJobHealth(
  db: Db,
  kinds: readonly { kind: string; maxWaitMs?: number }[],
  now: Date,
): Promise<JobKindHealth[]> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const rows = await queryRows<{
    kind: string;
    waiting: number;
    running: number;
    failed_last_day: number;
    oldest_due: string | Date | null;
  }>(
    db,
    sql`select kind,
          count(*) filter (where state = 'waiting')::int as waiting,
          count(*) filter (where state = 'running')::int as running,
          count(*) filter (where state = 'failed' and finished_at > ${at} - interval '24 hours')::int as failed_last_day,
          min(run_at) filter (where state = 'waiting' and run_at <= ${at}) as oldest_due
        from jobs
        where state in ('waiting', 'running') or (state = 'failed' and finished_at > ${at} - interval '24 hours')
        group by kind`,
  );
  const byKind = new Map(rows.map((row) => [row.kind, row]));
  const names = [...new Set([...kinds.map((entry) => entry.kind), ...byKind.keys()])].sort();
  return names.map((kind) => {
    const row = byKind.get(kind);
    const maxWaitMs = kinds.find((entry) => entry.kind === kind)?.maxWaitMs;
    const oldestWaitingMs = row?.oldest_due ? Math.max(0, now.getTime() - new Date(row.oldest_due).getTime()) : null;
    return {
      kind,
      waiting: row?.waiting ?? 0,
      running: row?.running ?? 0,
      failedLastDay: row?.failed_last_day ?? 0,
      oldestWaitingMs,
      maxWaitMs,
      overdue: oldestWaitingMs !== null && maxWaitMs !== undefined && oldestWaitingMs > maxWaitMs,
    };
  });
}
