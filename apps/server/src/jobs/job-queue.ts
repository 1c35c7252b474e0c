import { sql } from "drizzle-orm";
import type { z } from "zod";
import { type Db, queryRows } from "../db/client.js";

/** NOTIFYed (at commit) with the kind of each job enqueued, so idle runners claim it at once. */
export const jobsChannel = "vigil_jobs";

export type EnqueueOptions = {
  /** Not before this moment (default: now). */
  runAt?: Date;
  /** At most one job ever with this key (until pruned): a second enqueue with it adds nothing. */
  uniqueKey?: string;
};

/**
 * Adds a job in the caller's transaction (or statement, given a plain `db`): it exists exactly when the write that
 * caused it commits, and a rolled-back write leaves none. The payload is checked against the kind's schema here,
 * so a malformed job is the caller's error at once, not a failure found later. Returns the job's id, or undefined
 * when `uniqueKey` was already taken.
 */
export async function enqueueJob<Payload>(
  tx: Db,
  kind: { kind: string; payload: z.ZodType<Payload> },
  payload: Payload,
  options: EnqueueOptions = {},
): Promise<string | undefined> {
  const checked = kind.payload.parse(payload);
  const runAt = options.runAt ? sql`${options.runAt.toISOString()}::timestamptz` : sql`now()`;
  const [row] = await queryRows<{ id: string }>(
    tx,
    sql`insert into jobs (kind, payload, unique_key, run_at)
        values (${kind.kind}, ${JSON.stringify(checked)}::jsonb, ${options.uniqueKey ?? null}, ${runAt})
        on conflict (unique_key) do nothing
        returning id`,
  );
  if (row) await tx.execute(sql`select pg_notify(${jobsChannel}, ${kind.kind})`);
  return row?.id;
}

export type ClaimedJob = { id: string; kind: string; payload: unknown; attempts: number };

/**
 * Takes up to `limit` due jobs of `kind` for `runner`: waiting ones whose time has come, and running ones whose lease
 * ran out (their instance died). `SKIP LOCKED`: two instances claiming at once take different jobs. The lease is
 * `leaseMs` from now; `attempts` counts this try.
 */
export async function claimJobs(db: Db, kind: string, runner: string, leaseMs: number, limit: number) {
  return queryRows<ClaimedJob>(
    db,
    sql`with picked as (
          select id from jobs
          where kind = ${kind}
            and ((state = 'waiting' and run_at <= now()) or (state = 'running' and locked_until < now()))
          order by run_at
          limit ${limit}
          for update skip locked
        )
        update jobs set state = 'running', attempts = jobs.attempts + 1, locked_by = ${runner},
          locked_until = now() + ${leaseMs} * interval '1 millisecond'
        from picked where jobs.id = picked.id
        returning jobs.id, jobs.kind, jobs.payload, jobs.attempts`,
  );
}

/** The fence of every ending: the row still belongs to this runner's try (its lease was not taken over). */
const stillOurs = (job: ClaimedJob, runner: string) =>
  sql`id = ${job.id} and state = 'running' and locked_by = ${runner} and attempts = ${job.attempts}`;

/** Marks the try done; false when the job was no longer this try's (its lease had run out and was taken over). */
export async function completeJob(db: Db, job: ClaimedJob, runner: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`update jobs set state = 'done', finished_at = now(), locked_by = null, locked_until = null
        where ${stillOurs(job, runner)} returning id`,
  );
  return rows.length > 0;
}

/** Records a failed try: waiting again after `retryInMs`, or (undefined) kept `failed` for good. */
export async function failJob(
  db: Db,
  job: ClaimedJob,
  runner: string,
  error: string,
  retryInMs: number | undefined,
): Promise<boolean> {
  const next =
    retryInMs === undefined
      ? sql`state = 'failed', finished_at = now()`
      : sql`state = 'waiting', run_at = now() + ${retryInMs} * interval '1 millisecond'`;
  const rows = await queryRows<{ id: string }>(
    db,
    sql`update jobs set ${next}, last_error = ${error.slice(0, 2000)}, locked_by = null, locked_until = null
        where ${stillOurs(job, runner)} returning id`,
  );
  return rows.length > 0;
}

/** Gives an unfinished try back (the instance is stopping): due at once, and not counted as a failed attempt. */
export async function releaseJob(db: Db, job: ClaimedJob, runner: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`update jobs set state = 'waiting', run_at = now(), attempts = attempts - 1, locked_by = null,
          locked_until = null
        where ${stillOurs(job, runner)} returning id`,
  );
  return rows.length > 0;
}

/**
 * Deletes finished jobs done before `before` (of `kinds` only, when given), a batch at a time; failed ones stay until
 * retried. Returns how many one batch deleted: fewer than `batch` means none is left.
 */
export async function pruneDoneJobs(
  db: Db,
  before: Date,
  options: { batch?: number; kinds?: readonly string[] } = {},
): Promise<number> {
  const { batch = 1000, kinds } = options;
  const ofKinds =
    kinds && kinds.length > 0
      ? sql`and kind in (${sql.join(
          kinds.map((kind) => sql`${kind}`),
          sql`, `,
        )})`
      : sql``;
  const rows = await queryRows<{ id: string }>(
    db,
    sql`delete from jobs where id in (
          select id from jobs where state = 'done' and finished_at < ${before.toISOString()}::timestamptz ${ofKinds}
          limit ${batch})
        returning id`,
  );
  return rows.length;
}

export type FailedJobRow = {
  id: string;
  kind: string;
  attempts: number;
  last_error: string | null;
  created_at: Date | string;
  finished_at: Date | string | null;
};

/** Jobs failed for good, newest first. */
export async function listFailedJobs(db: Db, limit: number): Promise<FailedJobRow[]> {
  return queryRows<FailedJobRow>(
    db,
    sql`select id, kind, attempts, last_error, created_at, finished_at from jobs
        where state = 'failed' order by finished_at desc nulls last, id limit ${limit}`,
  );
}

/**
 * Sets a job that failed for good waiting again (due now, attempts from zero, its last error kept until a try
 * ends); undefined when no failed job has this id. Wakes the runners as an enqueue does.
 */
export async function retryFailedJob(db: Db, id: string): Promise<{ id: string; kind: string } | undefined> {
  const [row] = await queryRows<{ id: string; kind: string }>(
    db,
    sql`update jobs set state = 'waiting', run_at = now(), attempts = 0, finished_at = null
        where id = ${id} and state = 'failed' returning id, kind`,
  );
  if (row) await db.execute(sql`select pg_notify(${jobsChannel}, ${row.kind})`);
  return row;
}
