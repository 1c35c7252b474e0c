import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/client.js";
import { openTestDatabase } from "../testing/test-app.js";
import { readJobHealth } from "./job-health.js";

let database: Database;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ database, drop } = await openTestDatabase());
});
afterAll(() => drop?.());

const now = new Date("2026-11-28T12:00:00Z");
const minutesBefore = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();

async function insert(kind: string, state: string, runAt: string, finishedAt: string | null = null) {
  await database.db.execute(
    sql`insert into jobs (kind, payload, state, run_at, finished_at)
        values (${kind}, '{}'::jsonb, ${state}, ${runAt}::timestamptz, ${finishedAt}::timestamptz)`,
  );
}

describe("the queue's health per kind", () => {
  it("counts waiting, running and failed in 24 h, ages the oldest due job, and flags a kind past its limit", async () => {
    await insert("health-a", "waiting", minutesBefore(30));
    await insert("health-a", "waiting", minutesBefore(2));
    await insert("health-a", "waiting", minutesBefore(-10)); // a retry's back-off: waiting, not yet due
    await insert("health-a", "running", minutesBefore(1));
    await insert("health-a", "failed", minutesBefore(60), minutesBefore(50));
    await insert("health-a", "failed", minutesBefore(3000), minutesBefore(2000)); // over a day ago
    await insert("health-a", "done", minutesBefore(5), minutesBefore(4));
    await insert("health-b", "waiting", minutesBefore(3));
    await insert("health-gone", "failed", minutesBefore(10), minutesBefore(9));

    const health = await readJobHealth(
      database.db,
      [
        { kind: "health-a", maxWaitMs: 20 * 60_000 },
        { kind: "health-b", maxWaitMs: 20 * 60_000 },
        { kind: "health-idle", maxWaitMs: 60_000 },
      ],
      now,
    );
    expect(health).toEqual([
      {
        kind: "health-a",
        waiting: 3,
        running: 1,
        failedLastDay: 1,
        oldestWaitingMs: 30 * 60_000,
        maxWaitMs: 20 * 60_000,
        overdue: true,
      },
      {
        kind: "health-b",
        waiting: 1,
        running: 0,
        failedLastDay: 0,
        oldestWaitingMs: 3 * 60_000,
        maxWaitMs: 20 * 60_000,
        overdue: false,
      },
      // A kind no longer run here still shows what it left.
      {
        kind: "health-gone",
        waiting: 0,
        running: 0,
        failedLastDay: 1,
        oldestWaitingMs: null,
        maxWaitMs: undefined,
        overdue: false,
      },
      {
        kind: "health-idle",
        waiting: 0,
        running: 0,
        failedLastDay: 0,
        oldestWaitingMs: null,
        maxWaitMs: 60_000,
        overdue: false,
      },
    ]);
  });
});
