import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, queryRows } from "../../db/client.js";
import { openTestDatabase } from "../../testing/test-app.js";
import {
  amountCentsFor,
  amountCentsForSql,
  centsOf,
  hundredthsFromSeconds,
  hundredthsFromSecondsSql,
} from "./billing-money.js";

/** The overview totals lines in the database: its SQL rules must give what the statement's TypeScript ones give. */
let database: Database;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ database, drop } = await openTestDatabase());
});
afterAll(() => drop());

describe("the money rules in SQL", () => {
  it("give the same hundredths and cents as the TypeScript rules, at the rounding edges and every rate width", async () => {
    const seconds = [0, 1, 17, 18, 19, 53, 54, 3599, 3600, 5400, 86_399, 2_678_400, 2_147_483_647];
    for (let value = 0; value < 400; value += 1) seconds.push(value * 9 + (value % 7));
    const rates = ["0.00", "0.01", "95.00", "125.50", "199.99", "9999999999.99", "1.5", "7"];
    const pairs = seconds.flatMap((second) => rates.map((rate) => ({ second, rateCents: centsOf(rate) })));
    const rows = await queryRows<{ hundredths: string; cents: string }>(
      database.db,
      sql`select (${hundredthsFromSecondsSql(sql`p.seconds`)})::text as hundredths,
          (${amountCentsForSql(hundredthsFromSecondsSql(sql`p.seconds`), sql`p.rate_cents`)})::text as cents
        from unnest(${sql.param(pairs.map((pair) => pair.second))}::int[],
          ${sql.param(pairs.map((pair) => String(pair.rateCents)))}::numeric[]) with ordinality as p(seconds, rate_cents, n)
        order by p.n`,
    );
    expect(rows).toHaveLength(pairs.length);
    rows.forEach((row, index) => {
      const { second, rateCents } = pairs[index] as (typeof pairs)[number];
      const hundredths = hundredthsFromSeconds(second);
      expect(row.hundredths, `${second} s`).toBe(String(hundredths));
      expect(row.cents, `${second} s at ${rateCents} cents`).toBe(String(amountCentsFor(hundredths, rateCents)));
    });
  });
});
