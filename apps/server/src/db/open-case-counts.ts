import { sql } from "drizzle-orm";
import { type Db, queryRows } from "./client.js";

/**
 * The open-case count kept per client (`client_open_case_counts`, kept by a trigger on `cases`: migration 0020).
 * The trigger serves every writer that goes through SQL; a bulk load by COPY with triggers off (the bench's data)
 * recomputes it here, and the check compares it with a count of the cases.
 */

const openCases = sql`select client_id, count(*)::int as open_cases from cases
  where stage <> 'closed' and archived_at is null group by client_id`;

/** Counts every client's open cases afresh (after a load that bypassed the trigger). */
export async function recomputeOpenCaseCounts(db: Db): Promise<void> {
  await db.execute(sql`delete from client_open_case_counts`);
  await db.execute(sql`insert into client_open_case_counts (client_id, open_cases) ${openCases}`);
}

export type OpenCaseCountDifference = { clientId: string; kept: number | null; expected: number };

/** Every client whose kept count differs from a count of its open cases (a kept 0 and no row are the same). */
export async function compareOpenCaseCounts(db: Db): Promise<OpenCaseCountDifference[]> {
  return queryRows<OpenCaseCountDifference>(
    db,
    sql`select k.id as "clientId", c.open_cases as kept, coalesce(o.open_cases, 0) as expected
      from clients k
      left join client_open_case_counts c on c.client_id = k.id
      left join (${openCases}) o on o.client_id = k.id
      where coalesce(c.open_cases, 0) <> coalesce(o.open_cases, 0)
      order by k.id`,
  );
}
