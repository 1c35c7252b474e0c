import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../testing/test-app.js";
import { countCapped } from "./capped-count.js";
import type { Database } from "./client.js";

let database: Database;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ database, drop } = await openTestDatabase());
});
afterAll(() => drop?.());

describe("a list's total counted up to a cap", () => {
  it("is exact up to the cap, the cap itself included", async () => {
    expect(await countCapped(database.db, sql`select g from generate_series(1, 10) g`, 10)).toEqual({
      total: 10,
      totalIsEstimate: false,
    });
    expect(await countCapped(database.db, sql`select g from generate_series(1, 0) g`, 10)).toEqual({
      total: 0,
      totalIsEstimate: false,
    });
  });

  it("is the planner's estimate past the cap, never below the cap", async () => {
    // PostgreSQL estimates a generate_series of constants exactly.
    expect(await countCapped(database.db, sql`select g from generate_series(1, 5000) g`, 10)).toEqual({
      total: 5000,
      totalIsEstimate: true,
    });
    const filtered = await countCapped(database.db, sql`select g from generate_series(1, 5000) g where g % 7 = 0`, 10);
    expect(filtered.totalIsEstimate).toBe(true);
    expect(filtered.total).toBeGreaterThanOrEqual(11);
  });
});
