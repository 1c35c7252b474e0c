import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { cases } from "../../db/schema.js";

export async function findCaseNumber(db: Db, id: string): Promise<string | undefined> {
  const [row] = await db.select({ caseNumber: cases.caseNumber }).from(cases).where(eq(cases.id, id)).limit(1);
  return row?.caseNumber;
}
