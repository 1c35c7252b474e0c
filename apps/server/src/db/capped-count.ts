import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { type Db, queryRows } from "./client.js";

/**
 * A list's total without counting the world: exact while there are at most `cap` rows (reading no more than
 * `cap + 1` of them), beyond that the planner's estimate of the same query, which the screens show as "about N".
 * A queue of 97,000 closed cases then costs a count of 10,001 index entries, not of every one, on every page.
 */
export const exactCountCap = 10_000;

export type CappedTotal = { total: number; totalIsEstimate: boolean };

/** `rows`: a query selecting the list's rows (any columns; no order or limit needed). */
export async function countCapped(db: Db, rows: SQLWrapper, cap = exactCountCap): Promise<CappedTotal> {
  const [counted] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from (${rows} limit ${cap + 1}) capped`,
  );
  const exact = Number(counted?.n ?? 0);
  if (exact <= cap) return { total: exact, totalIsEstimate: false };
  return { total: Math.max(cap + 1, await estimateRows(db, sql`${rows}`)), totalIsEstimate: true };
}

/** The planner's estimate of how many rows a query returns (EXPLAIN, nothing run). */
async function estimateRows(db: Db, query: SQL): Promise<number> {
  const [row] = await queryRows<{ "QUERY PLAN": unknown }>(db, sql`explain (format json) ${query}`);
  const plan = row?.["QUERY PLAN"];
  const parsed = (typeof plan === "string" ? JSON.parse(plan) : plan) as { Plan?: { "Plan Rows"?: number } }[];
  return Math.round(Number(parsed?.[0]?.Plan?.["Plan Rows"] ?? 0));
}
