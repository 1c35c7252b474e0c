import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { loadConfig } from "../config.js";
import { type Database, openDatabase, queryRows } from "../db/client.js";
import { jobs } from "../db/schema.js";
import { openTestDatabase } from "../testing/test-app.js";
import { defineJob } from "./job-definition.js";
import { claimJobs, enqueueJob } from "./job-queue.js";
import { type JobRunner, startJobRunner } from "./job-runner.js";

/**
 * The job room on the engine the run uses: PGlite, or PostgreSQL with DATABASE_URL (where the "second instance" is a
 * second connection pool on the same database, as another process would have).
 */
let database: Database;
let second: Database;
let drop: () => Promise<void>;
const silent = {
  child: () => silent,
  info: () => {},
  warn: () => {},
  error: () => {},
  debug: () => {},
  trace: () => {},
  fatal: () => {},
  level: "silent",
  silent: () => {},
} as unknown as Parameters<typeof startJobRunner>[2];
const runners: JobRunner[] = [];

beforeAll(async () => {
  ({ database, drop } = await openTestDatabase());
  if (database.engine === "postgres") {
    const [current] = await queryRows<{ name: string }>(database.db, sql`select current_database() as name`);
    const url = new URL(loadConfig().databaseUrl as string);
    url.pathname = `/${current?.name}`;
    second = await openDatabase({ kind: "postgres", url: url.toString(), poolSize: 4 });
  } else {
    second = database; // PGlite is one process's database: the second runner shares it
  }
});
afterAll(async () => {
  await Promise.all(runners.map((runner) => runner.stop()));
  if (second !== database) await second?.close();
  await drop?.();
});

function start(on: Database, definitions: Parameters<typeof startJobRunner>[1], options = {}) {
  const runner = startJobRunner(on, definitions, silent, { pollMs: 50, ...options });
  runners.push(runner);
  return runner;
}

const noteSchema = z.object({ note: z.string() });
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const quickRetry = { limit: 3, backoff: { baseMs: 20, maxMs: 100 } };

async function jobRow(id: string | undefined) {
  const [row] = await database.db
    .select()
    .from(jobs)
    .where(eq(jobs.id, id as string));
  return row;
}

describe("enqueueing", () => {
  it("adds the job with the write that commits, and none with a write rolled back", async () => {
    const kind = defineJob({
      kind: "test-tx",
      payload: noteSchema,
      retry: quickRetry,
      timeoutMs: 1000,
      handle: async () => {},
    });
    let rolledBackId: string | undefined;
    await expect(
      database.db.transaction(async (tx) => {
        rolledBackId = await enqueueJob(tx, kind, { note: "rolled back" });
        throw new Error("the write failed");
      }),
    ).rejects.toThrow("the write failed");
    expect(rolledBackId).toBeDefined();
    expect(await jobRow(rolledBackId)).toBeUndefined();

    const committedId = await database.db.transaction((tx) => enqueueJob(tx, kind, { note: "kept" }));
    expect(await jobRow(committedId)).toMatchObject({ kind: "test-tx", state: "waiting", payload: { note: "kept" } });
  });

  it("refuses a payload its kind's schema does not accept, and adds a unique key once", async () => {
    const kind = defineJob({
      kind: "test-unique",
      payload: noteSchema,
      retry: quickRetry,
      timeoutMs: 1000,
      handle: async () => {},
    });
    await expect(enqueueJob(database.db, kind, { note: 5 } as unknown as { note: string })).rejects.toThrow();
    const first = await enqueueJob(database.db, kind, { note: "a" }, { uniqueKey: "test-unique:1" });
    const again = await enqueueJob(database.db, kind, { note: "b" }, { uniqueKey: "test-unique:1" });
    expect(first).toBeDefined();
    expect(again).toBeUndefined();
    expect(await database.db.select().from(jobs).where(eq(jobs.kind, "test-unique"))).toHaveLength(1);
  });
});

describe("running", () => {
  it("retries a failing try with back-off and completes it when a later try succeeds", async () => {
    const tries: Date[] = [];
    const kind = defineJob({
      kind: "test-flaky",
      payload: noteSchema,
      retry: { limit: 3, backoff: { baseMs: 200, maxMs: 1000 } },
      timeoutMs: 1000,
      handle: async () => {
        tries.push(new Date());
        if (tries.length < 2) throw new Error("the mail server said no");
      },
    });
    const id = await enqueueJob(database.db, kind, { note: "flaky" });
    start(database, [kind]);
    await expect.poll(async () => (await jobRow(id))?.state, { timeout: 10_000 }).toBe("done");
    expect(tries).toHaveLength(2);
    // The second try waited for the back-off (200 ms after the first failure).
    expect((tries[1] as Date).getTime() - (tries[0] as Date).getTime()).toBeGreaterThanOrEqual(150);
    expect(await jobRow(id)).toMatchObject({ attempts: 2, lastError: "the mail server said no", lockedBy: null });
  });

  it("keeps a job failed, with its last error, after its kind's limit of tries", async () => {
    let tries = 0;
    const kind = defineJob({
      kind: "test-failing",
      payload: noteSchema,
      retry: quickRetry,
      timeoutMs: 1000,
      handle: async ({ note }) => {
        tries += 1;
        throw new Error(`no route to ${note} (try ${tries})`);
      },
    });
    const id = await enqueueJob(database.db, kind, { note: "the relay" });
    start(database, [kind]);
    await expect.poll(async () => (await jobRow(id))?.state, { timeout: 10_000 }).toBe("failed");
    await sleep(300);
    expect(tries).toBe(3);
    const row = await jobRow(id);
    expect(row).toMatchObject({ attempts: 3, lastError: "no route to the relay (try 3)" });
    expect(row?.finishedAt).not.toBeNull();
  });

  it("counts a try that outlives its kind's timeout as failed, and retries it", async () => {
    let tries = 0;
    const kind = defineJob({
      kind: "test-slow",
      payload: noteSchema,
      retry: { limit: 2, backoff: { baseMs: 10, maxMs: 10 } },
      timeoutMs: 200,
      handle: async (_payload, { signal }) => {
        tries += 1;
        if (tries === 1) await new Promise((resolve) => signal.addEventListener("abort", resolve));
      },
    });
    const id = await enqueueJob(database.db, kind, { note: "slow" });
    start(database, [kind]);
    await expect.poll(async () => (await jobRow(id))?.state, { timeout: 10_000 }).toBe("done");
    expect(tries).toBe(2);
    expect((await jobRow(id))?.lastError).toBe("timed out after 200 ms");
  });

  it("runs each job exactly once when two instances claim at the same time", async () => {
    const handled = new Map<string, number>();
    const kind = defineJob({
      kind: "test-shared",
      payload: noteSchema,
      retry: quickRetry,
      timeoutMs: 5000,
      handle: async (_payload, { jobId }) => {
        handled.set(jobId, (handled.get(jobId) ?? 0) + 1);
        await sleep(5);
      },
    });
    const ids = await database.db.transaction(async (tx) => {
      const added: string[] = [];
      for (let index = 0; index < 40; index += 1)
        added.push((await enqueueJob(tx, kind, { note: `${index}` })) as string);
      return added;
    });
    const one = start(database, [kind]);
    const two = start(second, [kind]);
    await expect
      .poll(
        async () =>
          (await database.db.select().from(jobs).where(inArray(jobs.id, ids))).filter((row) => row.state === "done")
            .length,
        { timeout: 20_000 },
      )
      .toBe(40);
    expect([...handled.keys()].sort()).toEqual([...ids].sort());
    expect([...handled.values()].every((count) => count === 1)).toBe(true);
    const byRunner = await queryRows<{ attempts: number }>(
      database.db,
      sql`select attempts from jobs where kind = 'test-shared'`,
    );
    expect(byRunner.every((row) => row.attempts === 1)).toBe(true);
    expect(one.id).not.toBe(two.id);
  });

  it("takes over a job whose instance died mid-try once its lease runs out, and completes it once", async () => {
    const handled: number[] = [];
    const kind = defineJob({
      kind: "test-orphan",
      payload: noteSchema,
      retry: quickRetry,
      timeoutMs: 300,
      handle: async (_payload, { attempt }) => {
        handled.push(attempt);
      },
    });
    const id = await enqueueJob(database.db, kind, { note: "orphan" });
    // An instance claims it and is never heard from again (killed): its lease here is 300 ms.
    const [claimed] = await claimJobs(database.db, kind.kind, "dead-instance", 300, 1);
    expect(claimed?.id).toBe(id);
    start(second, [kind]);
    await sleep(150);
    expect(handled).toEqual([]); // the lease still holds
    await expect.poll(async () => (await jobRow(id))?.state, { timeout: 10_000 }).toBe("done");
    expect(handled).toEqual([2]);
  });
});

describe("recurring kinds", () => {
  it("runs one job per period across two instances", async () => {
    const periods: string[] = [];
    const kind = defineJob({
      kind: "test-every",
      payload: z.object({ period: z.string() }),
      retry: { limit: 1, backoff: { baseMs: 10, maxMs: 10 } },
      timeoutMs: 1000,
      every: { ms: 250, payload: (start) => ({ period: start.toISOString() }) },
      handle: async ({ period }) => {
        periods.push(period);
      },
    });
    const one = start(database, [kind]);
    const two = start(second, [kind]);
    await sleep(1600);
    await Promise.all([one.stop(), two.stop()]);
    expect(periods.length).toBeGreaterThanOrEqual(4);
    expect(new Set(periods).size).toBe(periods.length);
    const rows = await database.db.select().from(jobs).where(eq(jobs.kind, "test-every"));
    expect(rows.map((row) => row.uniqueKey).sort()).toEqual(periods.map((period) => `test-every@${period}`).sort());
  });
});

describe("stopping", () => {
  it("lets a try in flight finish within the grace, and gives back one that does not", async () => {
    let finished = 0;
    const kind = defineJob({
      kind: "test-stop",
      payload: z.object({ ms: z.number() }),
      retry: quickRetry,
      timeoutMs: 10_000,
      handle: async ({ ms }, { signal }) => {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, ms);
          signal.addEventListener("abort", () => {
            clearTimeout(timer);
            reject(signal.reason);
          });
        });
        finished += 1;
      },
    });
    const quick = await enqueueJob(database.db, kind, { ms: 200 });
    const stuck = await enqueueJob(database.db, kind, { ms: 60_000 });
    const runner = start(database, [kind], { graceMs: 600 });
    await expect.poll(async () => (await jobRow(stuck))?.state, { timeout: 5_000 }).toBe("running");
    await runner.stop();
    expect(await jobRow(quick)).toMatchObject({ state: "done", attempts: 1 });
    // Given back: due again, not counted as a failed try, and no longer anyone's.
    expect(await jobRow(stuck)).toMatchObject({ state: "waiting", attempts: 0, lockedBy: null, lastError: null });
    expect(finished).toBe(1);
  });
});

describe("what a try tells the operators", () => {
  it("logs each try's lines with its job id and kind, and counts each failed try by kind", async () => {
    const lines: Record<string, unknown>[] = [];
    const recording = (bindings: Record<string, unknown>): Parameters<typeof startJobRunner>[2] =>
      ({
        ...silent,
        child: (more: Record<string, unknown>) => recording({ ...bindings, ...more }),
        info: (details: object, message?: string) => lines.push({ ...bindings, ...details, message }),
        warn: (details: object | string, message?: string) =>
          lines.push({ ...bindings, ...(typeof details === "string" ? { message: details } : details), message }),
        error: (details: object, message?: string) => lines.push({ ...bindings, ...details, message }),
      }) as unknown as Parameters<typeof startJobRunner>[2];
    const failures: string[] = [];
    const kind = defineJob({
      kind: "test-logged",
      payload: noteSchema,
      retry: { limit: 2, backoff: { baseMs: 10, maxMs: 10 } },
      timeoutMs: 1000,
      handle: async (payload, { log }) => {
        log.info({ note: payload.note }, "handling");
        throw new Error("the transport is down");
      },
    });
    const id = await enqueueJob(database.db, kind, { note: "logged" });
    const runner = startJobRunner(database, [kind], recording({}), {
      pollMs: 20,
      onFailure: (failed) => failures.push(failed),
    });
    runners.push(runner);
    for (let waited = 0; (await jobRow(id))?.state !== "failed"; waited += 1) {
      expect(waited, "the job failed for good").toBeLessThan(200);
      await sleep(20);
    }
    expect(lines.filter((line) => line.message === "handling")).toEqual([
      expect.objectContaining({ jobId: id, jobKind: "test-logged", attempt: 1, note: "logged" }),
      expect.objectContaining({ jobId: id, jobKind: "test-logged", attempt: 2, note: "logged" }),
    ]);
    expect(lines.find((line) => line.message === "a job failed for good")).toMatchObject({
      jobId: id,
      jobKind: "test-logged",
    });
    expect(failures).toEqual(["test-logged", "test-logged"]);
  });

  it("is woken through the instance's listener when given one, opening no connection of its own", async () => {
    const handlers = new Map<string, (payload: string) => void>();
    const wakeUps = {
      onNotify: (channel: string, handler: (payload: string) => void) => {
        handlers.set(channel, handler);
        return () => handlers.delete(channel);
      },
      onStateChange: () => () => undefined,
    };
    const listens: string[] = [];
    const watched = {
      ...database,
      listen: (...args: Parameters<Database["listen"]>) => {
        listens.push(String(args[0]));
        return database.listen(...args);
      },
    } as Database;
    let handled = 0;
    const kind = defineJob({
      kind: "test-woken",
      payload: noteSchema,
      retry: quickRetry,
      timeoutMs: 1000,
      handle: async () => {
        handled += 1;
      },
    });
    // A poll an hour away: only the wake-up can start the job.
    const runner = startJobRunner(watched, [kind], silent, { pollMs: 3_600_000, wakeUps });
    runners.push(runner);
    await sleep(50);
    await enqueueJob(database.db, kind, { note: "wake" });
    handlers.get("vigil_jobs")?.("test-woken");
    for (let waited = 0; handled === 0; waited += 1) {
      expect(waited, "the wake-up started the job").toBeLessThan(100);
      await sleep(20);
    }
    expect(listens).toEqual([]);
    await runner.stop();
    expect(handlers.size).toBe(0);
  });
});
