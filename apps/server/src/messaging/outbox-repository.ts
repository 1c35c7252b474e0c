import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { outbox } from "../db/schema.js";

export type OutboxRow = typeof outbox.$inferSelect;

/**
 * Keeps a message. With `keep: false` the same statement runs and keeps nothing: where an answer must not reveal
 * whether a message was written (ForgotPassword for a name with no account), both paths then do the same work.
 */
export async function insertOutboxMessage(
  db: Db,
  row: Pick<typeof outbox.$inferInsert, "channel" | "recipient" | "subject" | "body">,
  options: { keep: boolean } = { keep: true },
): Promise<void> {
  await db.execute(
    sql`insert into ${outbox} (channel, recipient, subject, body)
        select ${row.channel}, ${row.recipient}, ${row.subject}, ${row.body} where ${options.keep}`,
  );
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
