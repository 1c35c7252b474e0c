import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { clientUsefulLinks } from "../../db/schema.js";

export type UsefulLinkRow = typeof clientUsefulLinks.$inferSelect;
export type UsefulLinkValues = Pick<typeof clientUsefulLinks.$inferInsert, "title" | "url" | "description">;

/** The client's links that are not removed, by title. */
export async function findUsefulLinksOfClient(db: Db, clientId: string): Promise<UsefulLinkRow[]> {
  return db
    .select()
    .from(clientUsefulLinks)
    .where(and(eq(clientUsefulLinks.clientId, clientId), isNull(clientUsefulLinks.removedAt)))
    .orderBy(asc(sql`lower(${clientUsefulLinks.title})`), asc(clientUsefulLinks.createdAt));
}

/** A link of the client that is not removed, locked for the write that follows. */
export async function findUsefulLinkForUpdate(
  db: Db,
  clientId: string,
  id: string,
): Promise<UsefulLinkRow | undefined> {
  const [row] = await db
    .select()
    .from(clientUsefulLinks)
    .where(
      and(eq(clientUsefulLinks.id, id), eq(clientUsefulLinks.clientId, clientId), isNull(clientUsefulLinks.removedAt)),
    )
    .limit(1)
    .for("update");
  return row;
}

export async function insertUsefulLink(
  db: Db,
  values: UsefulLinkValues & { clientId: string },
): Promise<UsefulLinkRow> {
  const [row] = await db.insert(clientUsefulLinks).values(values).returning();
  return row as UsefulLinkRow;
}

/** Changes a link and moves it to its next version. */
export async function updateUsefulLinkRow(
  db: Db,
  id: string,
  values: Partial<UsefulLinkValues> & { removedAt?: Date },
): Promise<UsefulLinkRow | undefined> {
  const [row] = await db
    .update(clientUsefulLinks)
    .set({ version: sql`${clientUsefulLinks.version} + 1`, updatedAt: sql`now()`, ...values })
    .where(eq(clientUsefulLinks.id, id))
    .returning();
  return row;
}
