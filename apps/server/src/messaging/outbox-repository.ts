import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { outbox } from "../db/schema.js";

export type OutboxRow = typeof outbox.$inferSelect;

export async function insertOutboxMessage(db: Db, row: typeof outbox.$inferInsert): Promise<OutboxRow> {
  const [inserted] = await db.insert(outbox).values(row).returning();
  return inserted as OutboxRow;
}

export async function listOutboxMessages(
  db: Db,
  filter: { recipient?: string; channel?: string; limit: number },
): Promise<OutboxRow[]> {
  const conditions = [];
  if (filter.recipient) conditions.push(eq(outbox.recipient, filter.recipient));
  if (filter.channel) conditions.push(eq(outbox.channel, filter.channel));
  return db
    .select()
    .from(outbox)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(outbox.createdAt))
    .limit(filter.limit);
}
