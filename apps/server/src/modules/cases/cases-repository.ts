import { and, count, desc, eq, inArray, ne, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { cases } from "../../db/schema.js";

export type CaseRow = typeof cases.$inferSelect;

export async function findCaseNumber(db: Db, id: string): Promise<string | undefined> {
  const [row] = await db.select({ caseNumber: cases.caseNumber }).from(cases).where(eq(cases.id, id)).limit(1);
  return row?.caseNumber;
}

/** Cases not yet closed, counted per client; clients without open cases are absent from the map. */
export async function countOpenCasesByClient(db: Db, clientIds: readonly string[]): Promise<Map<string, number>> {
  if (clientIds.length === 0) return new Map();
  const rows = await db
    .select({ clientId: cases.clientId, total: count() })
    .from(cases)
    .where(and(inArray(cases.clientId, [...clientIds]), ne(cases.stage, "closed")))
    .groupBy(cases.clientId);
  return new Map(rows.map((row) => [row.clientId, Number(row.total)]));
}

export async function findCasesOfClient(
  db: Db,
  clientId: string,
  filter: { stage?: string | undefined; limit: number; offset: number },
): Promise<{ rows: CaseRow[]; total: number }> {
  const conditions: SQL[] = [eq(cases.clientId, clientId)];
  if (filter.stage) conditions.push(eq(cases.stage, filter.stage));
  const where = and(...conditions);
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(cases)
      .where(where)
      .orderBy(desc(cases.createdAt), desc(cases.id))
      .limit(filter.limit)
      .offset(filter.offset),
    db.select({ total: count() }).from(cases).where(where),
  ]);
  return { rows, total: Number(counted?.total ?? 0) };
}
