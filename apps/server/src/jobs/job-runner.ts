import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { FastifyBaseLogger } from "fastify";
import type { Database, Unlisten } from "../db/client.js";
import { backoffMs, type JobDefinition, JobFailedForGood, leaseMsOf } from "./job-definition.js";
import {
  type ClaimedJob,
  claimJobs,
  completeJob,
  enqueueJob,
  failJob,
  jobsChannel,
  pruneDoneJobs,
  releaseJob,
} from "./job-queue.js";

export type JobRunnerOptions = {
  /** Look for due jobs this often even when no NOTIFY came (a retry's time, a lost listen, a dead lease). */
  pollMs?: number;
  /** Tries this instance runs at once, all kinds together. */
  concurrency?: number;
  /** On stop, how long tries in flight may take to finish before they are given back. */
  graceMs?: number;
  /** Finished jobs are kept this long, then deleted. */
  keepDoneMs?: number;
  /**
   * Finished jobs of recurring kinds are kept this long: once its period has passed such a row says nothing (its
   * unique key only guards the period), and a sweep every 5 s alone finishes ~17,000 a day.
   */
  keepRecurringDoneMs?: number;
  /**
   * The instance's one listening connection (events/notification-listener.ts), started with `jobsChannel`: the
   * runner is woken through it rather than opening a LISTEN connection of its own. Without it (tests, scripts) the
   * runner listens itself.
   */
  wakeUps?: WakeUps;
  /** Told of each failed try by kind (the metrics' `countJobFailure`). */
  onFailure?: (kind: string) => void;
};

/** What the runner needs of the instance's notification listener (a structural type: jobs/ sits below events/). */
export type WakeUps = {
  onNotify: (channel: string, handler: (payload: string) => void) => () => void;
  onStateChange: (handler: (state: "listening" | "lost") => void) => () => void;
};

export type JobRunner = {
  /** This instance's name in `jobs.locked_by`. */
  id: string;
  /** Claims due jobs now (tests; NOTIFY and the poll do it otherwise). */
  poll: () => Promise<void>;
  /** Stops claiming; waits up to the grace for tries in flight, gives back the rest; never drops one. */
  stop: () => Promise<void>;
};

const hourMs = 3_600_000;
const pruneBatch = 1000;

/**
 * Batch after batch until one comes back short, so an hour's prune keeps up with any rate of jobs; at most 100
 * (100,000 rows), so a first prune of a long-unpruned table does not hold the poll for long (the next hour goes on).
 */
async function pruneInBatches(prune: () => Promise<number>): Promise<void> {
  for (let round = 0; round < 100; round += 1) {
    if ((await prune()) < pruneBatch) return;
  }
}

// biome-ignore lint/suspicious/noExplicitAny: a runner holds kinds of every payload type
type AnyDefinition = JobDefinition<any>;

/**
 * Runs the given kinds on this instance (docs/design/JOBS.md): claims due jobs under a lease, runs each with its
 * kind's timeout, records done / retry-with-back-off / failed, and inserts each recurring kind's job for the current
 * period (its unique key makes it one job across instances). Every instance runs one; the database decides who
 * runs what.
 */
export function startJobRunner(
  database: Database,
  definitions: readonly AnyDefinition[],
  log: FastifyBaseLogger,
  options: JobRunnerOptions = {},
): JobRunner {
  const {
    pollMs = 1000,
    concurrency = 4,
    graceMs = 7000,
    keepDoneMs = 7 * 24 * hourMs,
    keepRecurringDoneMs = 24 * hourMs,
  } = options;
  const { db } = database;
  const id = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const kinds = new Map(definitions.map((definition) => [definition.kind, definition]));
  if (kinds.size !== definitions.length) throw new Error("Two job definitions share a kind.");
  const inFlight = new Map<string, { job: ClaimedJob; done: Promise<void>; controller: AbortController }>();
  let stopping = false;
  let polling: Promise<void> | undefined;
  let pollAgain = false;
  let unlisten: Unlisten | undefined;
  let lastPrune = 0;

  const run = async (definition: AnyDefinition, job: ClaimedJob, controller: AbortController) => {
    const jobLog = log.child({ jobId: job.id, jobKind: job.kind, attempt: job.attempts });
    const fail = async (message: string, retry: boolean) => {
      const retryIn =
        retry && job.attempts < definition.retry.limit ? backoffMs(definition.retry, job.attempts) : undefined;
      const recorded = await failJob(db, job, id, message, retryIn);
      options.onFailure?.(job.kind);
      if (!recorded) jobLog.warn("a job's try ended after its lease was taken over; its ending is not recorded");
      else if (retryIn === undefined) jobLog.error({ error: message }, "a job failed for good");
      else jobLog.warn({ error: message, retryInMs: retryIn }, "a job's try failed; it is retried");
    };
    if (job.attempts > definition.retry.limit) {
      await fail("its instance stopped during the last allowed attempt", false);
      return;
    }
    const parsed = definition.payload.safeParse(job.payload);
    if (!parsed.success) {
      // Retrying cannot mend a payload: kept failed, with what was wrong.
      await fail(
        `payload: ${parsed.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`).join("; ")}`,
        false,
      );
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Error(`timed out after ${definition.timeoutMs} ms`);
    let expired = false;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        // Past the timeout the lease is over too: whatever the handler does now, the try counts as failed.
        expired = true;
        reject(timeout);
        controller.abort(timeout);
      }, definition.timeoutMs);
    });
    try {
      const context = { db, log: jobLog, jobId: job.id, attempt: job.attempts, signal: controller.signal };
      await Promise.race([definition.handle(parsed.data, context), timedOut]);
      if (expired) throw timeout;
    } catch (error) {
      if (stopping && controller.signal.aborted && !expired) return; // given back by stop()
      await fail(error instanceof Error ? error.message : String(error), !(error instanceof JobFailedForGood));
      return;
    } finally {
      clearTimeout(timer);
    }
    if (!(await completeJob(db, job, id))) {
      jobLog.warn("a job's try finished after its lease was taken over; its ending is not recorded");
    }
  };

  const claimAndStart = async () => {
    for (const definition of kinds.values()) {
      const room = concurrency - inFlight.size;
      if (room <= 0 || stopping) return;
      const claimed = await claimJobs(db, definition.kind, id, leaseMsOf(definition), room);
      for (const job of claimed) {
        const controller = new AbortController();
        const done = run(definition, job, controller)
          .catch((error: unknown) => log.error({ err: error, jobId: job.id }, "a job's ending could not be recorded"))
          .finally(() => {
            inFlight.delete(job.id);
            if (!stopping) void poll();
          });
        inFlight.set(job.id, { job, done, controller });
      }
    }
  };

  const insertDuePeriods = async () => {
    const now = Date.now();
    for (const definition of kinds.values()) {
      if (!definition.every) continue;
      const periodStart = new Date(Math.floor(now / definition.every.ms) * definition.every.ms);
      await enqueueJob(db, definition, definition.every.payload(periodStart), {
        uniqueKey: `${definition.kind}@${periodStart.toISOString()}`,
      });
    }
    if (now - lastPrune > hourMs) {
      lastPrune = now;
      const recurring = [...kinds.values()].filter((definition) => definition.every).map(({ kind }) => kind);
      await pruneInBatches(() => pruneDoneJobs(db, new Date(now - keepDoneMs), { batch: pruneBatch }));
      if (recurring.length > 0) {
        await pruneInBatches(() =>
          pruneDoneJobs(db, new Date(now - keepRecurringDoneMs), { batch: pruneBatch, kinds: recurring }),
        );
      }
    }
  };

  // One pass at a time; a request during a pass runs one more pass after it (a NOTIFY is never lost in between).
  const poll = (): Promise<void> => {
    if (stopping) return Promise.resolve();
    if (polling) {
      pollAgain = true;
      return polling;
    }
    polling = (async () => {
      do {
        pollAgain = false;
        try {
          await insertDuePeriods();
          await claimAndStart();
        } catch (error) {
          log.error({ err: error }, "looking for due jobs failed; the next poll tries again");
        }
      } while (pollAgain && !stopping);
    })().finally(() => {
      polling = undefined;
    });
    return polling;
  };

  const timer = setInterval(() => void poll(), pollMs);
  timer.unref();
  const listen = (): Promise<void> =>
    database
      .listen(
        jobsChannel,
        (kind) => {
          if (kinds.has(kind)) void poll();
        },
        (error) => {
          unlisten = undefined;
          log.warn({ err: error }, "the jobs' NOTIFY listener dropped; polling until it is back");
          setTimeout(() => {
            if (!stopping) void listen();
          }, 5000).unref();
        },
      )
      .then(
        async (stop) => {
          if (stopping) await stop();
          else unlisten = stop;
        },
        (error: unknown) => log.warn({ err: error }, "the jobs' NOTIFY listener could not start; polling only"),
      );
  if (options.wakeUps) {
    const { wakeUps } = options;
    const stopNotify = wakeUps.onNotify(jobsChannel, (kind) => {
      if (kinds.has(kind)) void poll();
    });
    // NOTIFYs sent while the connection was down are lost: a poll once it listens again finds their jobs.
    const stopState = wakeUps.onStateChange((state) => {
      if (state === "listening") void poll();
    });
    unlisten = async () => {
      stopNotify();
      stopState();
    };
  } else {
    void listen();
  }
  void poll();

  return {
    id,
    poll,
    stop: async () => {
      if (stopping) return;
      stopping = true;
      clearInterval(timer);
      await unlisten?.().catch(() => undefined);
      await polling;
      const all = [...inFlight.values()];
      let graceTimer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => {
        graceTimer = setTimeout(resolve, graceMs);
      });
      await Promise.race([Promise.all(all.map((entry) => entry.done)), grace]);
      clearTimeout(graceTimer);
      // What is still running is given back, due at once, for another instance (or this one, restarted).
      for (const entry of inFlight.values()) {
        entry.controller.abort(new Error("the instance is stopping"));
        const released = await releaseJob(db, entry.job, id).catch(() => false);
        log.warn({ jobId: entry.job.id, jobKind: entry.job.kind, released }, "a job in flight was given back on stop");
      }
    },
  };
}
