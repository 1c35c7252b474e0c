import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { clients } from "../../db/schema.js";

export async function findClientName(db: Db, id: string): Promise<string | undefined> {
  const [row] = await db.select({ name: clients.name }).from(clients).where(eq(clients.id, id)).limit(1);
  return row?.name;
}
