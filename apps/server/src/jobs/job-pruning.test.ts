import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type Database, queryRows } from "../db/client.js";
import { openTestDatabase } from "../testing/test-app.js";
import { defineJob } from "./job-definition.js";
import { startJobRunner } from "./job-runner.js";

/**
 * Finished jobs do not pile up (docs/design/JOBS.md): a recurring kind's are deleted a day after they finished, any
 * other's after 7 days, failed ones never; all of a backlog goes in one prune, not a batch an hour.
 */
let database: Database;
let drop: () => Promise<void>;
const silent = {
  child: () => silent,
  info: () => {},
  warn: () => {},
  error: () => {},
  debug: () => {},
  trace: () => {},
  fatal: () => {},
} as unknown as Parameters<typeof startJobRunner>[2];

beforeAll(async () => {
  ({ database, drop } = await openTestDatabase());
});
afterAll(() => drop?.());

const payload = z.object({ period: z.iso.datetime() });
const sweep = defineJob({
  kind: "test-prune-sweep",
  payload,
  retry: { limit: 1, backoff: { baseMs: 1000, maxMs: 1000 } },
  timeoutMs: 1000,
  // Once a year: the runner inserts (and runs) this period's job, keyed, which the counts below leave out.
  every: { ms: 365 * 24 * 3_600_000, payload: (start) => ({ period: start.toISOString() }) },
  handle: async () => {},
});
const message = defineJob({
  kind: "test-prune-message",
  payload,
  retry: { limit: 1, backoff: { baseMs: 1000, maxMs: 1000 } },
  timeoutMs: 1000,
  handle: async () => {},
});

/** `count` rows of `kind` in `state`, finished `hoursAgo`. */
async function insertFinished(kind: string, state: "done" | "failed", hoursAgo: number, count: number) {
  await database.db.execute(
    sql`insert into jobs (kind, payload, state, attempts, run_at, finished_at)
        select ${kind}, '{"period":"2026-01-01T00:00:00.000Z"}'::jsonb, ${state}, 1,
          now() - ${hoursAgo} * interval '1 hour', now() - ${hoursAgo} * interval '1 hour'
        from generate_series(1, ${count})`,
  );
}

async function counts() {
  return queryRows<{ kind: string; state: string; age: string; count: number }>(
    database.db,
    sql`select kind, state,
          case when finished_at < now() - interval '7 days' then 'week+'
               when finished_at < now() - interval '1 day' then 'day+' else 'fresh' end as age,
          count(*)::int as count
        from jobs where kind like 'test-prune-%' and finished_at is not null and unique_key is null
        group by 1, 2, 3 order by 1, 2, 3`,
  );
}

describe("pruning finished jobs", () => {
  it("deletes a recurring kind's done jobs after a day and others' after a week, keeping every failed one", async () => {
    // A backlog of a sweep's done jobs, more than one batch (1000), and some of each other age and state.
    await insertFinished("test-prune-sweep", "done", 30, 2500);
    await insertFinished("test-prune-sweep", "done", 2, 3);
    await insertFinished("test-prune-sweep", "failed", 30, 2);
    await insertFinished("test-prune-message", "done", 30, 4);
    await insertFinished("test-prune-message", "done", 8 * 24, 5);
    await insertFinished("test-prune-message", "failed", 8 * 24, 1);

    // A runner prunes at its first poll, then hourly.
    const runner = startJobRunner(database, [sweep, message], silent, { pollMs: 60_000 });
    try {
      await runner.poll();
    } finally {
      await runner.stop();
    }
    expect(await counts()).toEqual([
      { kind: "test-prune-message", state: "done", age: "day+", count: 4 },
      { kind: "test-prune-message", state: "failed", age: "week+", count: 1 },
      { kind: "test-prune-sweep", state: "done", age: "fresh", count: 3 },
      { kind: "test-prune-sweep", state: "failed", age: "day+", count: 2 },
    ]);
  });
});
