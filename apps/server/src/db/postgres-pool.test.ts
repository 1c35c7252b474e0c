import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../testing/test-app.js";
import { type Database, queryRows } from "./client.js";

/**
 * The PostgreSQL pool keeps the connections it opened through a quiet spell: pg closes idle ones after 10 s by
 * default, and then the first requests after a lull each waited for a new backend and re-prepared their reads.
 * On PGlite (one in-process connection, no pool) there is nothing to keep.
 */
let database: Database;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ database, drop } = await openTestDatabase());
});
afterAll(async () => {
  await drop?.();
});

/** The backends that answer `count` queries held open at once, so each takes a connection of its own. */
async function backendsOfConcurrentQueries(count: number): Promise<Set<number>> {
  const answers = await Promise.all(
    Array.from({ length: count }, () =>
      queryRows<{ pid: number }>(database.db, sql`select pg_backend_pid() as pid, pg_sleep(0.1)`),
    ),
  );
  return new Set(answers.map(([row]) => Number(row?.pid)));
}

describe("the PostgreSQL connection pool", () => {
  it("keeps its connections through a quiet spell longer than pg's idle timeout", async (context) => {
    if (database.engine !== "postgres") context.skip();
    const size = database.poolUse?.().max ?? 0;
    expect(size).toBeGreaterThan(1);
    const before = await backendsOfConcurrentQueries(size);
    expect(before.size).toBe(size);

    await new Promise((resolve) => setTimeout(resolve, 11_000));

    expect(database.poolUse?.()).toMatchObject({ total: size, idle: size });
    const after = await backendsOfConcurrentQueries(size);
    expect([...after].sort()).toEqual([...before].sort());
  }, 30_000);
});
