import type { JobQueue, RetriedJob } from "@vigil/contract";
import type { Actor } from "../../audit/audited-write.js";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import { readJobHealth } from "../../jobs/job-health.js";
import { listFailedJobs, retryFailedJob } from "../../jobs/job-queue.js";

const failedShown = 100;
const seconds = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : Math.round(ms / 1000));
const instant = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** The queue per kind and the jobs failed for good (docs/design/JOBS.md), for the integration page. */
export async function getJobQueue(db: Db, kinds: readonly { kind: string; maxWaitMs?: number }[]): Promise<JobQueue> {
  const [health, failed] = await Promise.all([readJobHealth(db, kinds, new Date()), listFailedJobs(db, failedShown)]);
  return {
    kinds: health.map((kind) => ({
      kind: kind.kind,
      waiting: kind.waiting,
      running: kind.running,
      failedLastDay: kind.failedLastDay,
      oldestWaitingSeconds: seconds(kind.oldestWaitingMs),
      maxWaitSeconds: seconds(kind.maxWaitMs),
      overdue: kind.overdue,
    })),
    failed: failed.map((row) => ({
      id: row.id,
      kind: row.kind,
      attempts: row.attempts,
      lastError: row.last_error,
      createdAt: instant(row.created_at) as string,
      finishedAt: instant(row.finished_at),
    })),
  };
}

/** Sets a failed job going again; audited with who did it, in the same transaction. */
export async function retryJob(db: Db, id: string, actor: Actor): Promise<RetriedJob> {
  return db.transaction(async (tx) => {
    const job = await retryFailedJob(tx, id);
    if (!job) throw new AppError("not_found", `No failed job with id ${id}.`);
    await recordAudit(tx, {
      action: "jobs.retry",
      outcome: "success",
      actor: { sub: actor.sub, username: actor.username },
      target: { type: "job", id: job.id },
      ip: actor.ip,
      userAgent: actor.userAgent,
      details: { kind: job.kind },
    });
    return { id: job.id, kind: job.kind, state: "waiting" as const };
  });
}
