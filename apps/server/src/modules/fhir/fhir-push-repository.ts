import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { hl7Messages } from "../../db/schema.js";

/**
 * A push's row in the message log (`hl7_messages`, outbound, type `FHIR transaction`): one per report version (the
 * log's unique index on version and type), the one place its attempts, status and the server's answer are kept.
 */

export type PushMessageRow = typeof hl7Messages.$inferSelect;
type Values = typeof hl7Messages.$inferInsert;

/** Undefined when the version already has its push row (a repeated signing hook). */
export async function insertPushMessage(db: Db, values: Values): Promise<PushMessageRow | undefined> {
  const [row] = await db
    .insert(hl7Messages)
    .values(values)
    .onConflictDoNothing({
      target: [hl7Messages.reportVersionId, hl7Messages.messageType],
      where: sql`${hl7Messages.direction} = 'outbound' and ${hl7Messages.reportVersionId} is not null and ${hl7Messages.replayOf} is null`,
    })
    .returning();
  return row;
}

export async function findPushMessage(db: Db, id: string, messageType: string): Promise<PushMessageRow | undefined> {
  const [row] = await db
    .select()
    .from(hl7Messages)
    .where(and(eq(hl7Messages.id, id), eq(hl7Messages.direction, "outbound"), eq(hl7Messages.messageType, messageType)))
    .limit(1);
  return row;
}

/** A try is about to send: counted, and `sent` (the server may have it from now on). */
export async function markPushSending(db: Db, id: string): Promise<void> {
  await db
    .update(hl7Messages)
    .set({ status: "sent", attempts: sql`${hl7Messages.attempts} + 1` })
    .where(and(eq(hl7Messages.id, id), sql`${hl7Messages.status} <> 'acknowledged'`));
}

/** Records a try's end; false when the row was already acknowledged (nothing changes then). */
export async function settlePushMessage(
  db: Db,
  id: string,
  values: Pick<Values, "status" | "ackCode" | "ack" | "error" | "processedAt">,
): Promise<boolean> {
  const rows = await db
    .update(hl7Messages)
    .set(values)
    .where(and(eq(hl7Messages.id, id), sql`${hl7Messages.status} <> 'acknowledged'`))
    .returning({ id: hl7Messages.id });
  return rows.length > 0;
}
