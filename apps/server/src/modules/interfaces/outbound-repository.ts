import { and, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { caseOrders, hl7Messages } from "../../db/schema.js";
import { fhirPushMessageType } from "./result-job-kind.js";

export type OutboundMessageRow = typeof hl7Messages.$inferSelect;
export type OutboundMessageValues = typeof hl7Messages.$inferInsert;

export async function findCaseOrder(db: Db, caseId: string) {
  const [row] = await db.select().from(caseOrders).where(eq(caseOrders.caseId, caseId)).limit(1);
  return row;
}

/**
 * Inserts a version's result message unless one of that type is already there (the unique index on report version
 * and type): undefined then, and the existing row stays the one that is sent.
 */
export async function insertOutboundResult(
  db: Db,
  values: OutboundMessageValues,
): Promise<OutboundMessageRow | undefined> {
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

/** Inserts an outbound message that belongs to no report version (an order status). */
export async function insertOutboundMessage(db: Db, values: OutboundMessageValues): Promise<OutboundMessageRow> {
  const [row] = await db.insert(hl7Messages).values(values).returning();
  if (!row) throw new Error("the outbound message was not inserted");
  return row;
}

export async function findOutboundMessage(db: Db, id: string): Promise<OutboundMessageRow | undefined> {
  const [row] = await db
    .select()
    .from(hl7Messages)
    .where(and(eq(hl7Messages.id, id), eq(hl7Messages.direction, "outbound")))
    .limit(1);
  return row;
}

/** Records that a try is about to write the message to the socket (the peer may have it from now on). */
export async function markOutboundSending(db: Db, id: string): Promise<void> {
  await db
    .update(hl7Messages)
    .set({ status: "sent", attempts: sql`${hl7Messages.attempts} + 1` })
    .where(and(eq(hl7Messages.id, id), sql`${hl7Messages.status} <> 'acknowledged'`));
}

export async function settleOutboundMessage(
  db: Db,
  id: string,
  values: Pick<OutboundMessageValues, "status" | "ackCode" | "ack" | "error" | "processedAt">,
): Promise<void> {
  await db
    .update(hl7Messages)
    .set(values)
    .where(and(eq(hl7Messages.id, id), sql`${hl7Messages.status} <> 'acknowledged'`));
}

/** The HL7 result messages of these report versions (originals, not replays), oldest first. */
export async function findResultMessagesOfVersions(
  db: Db,
  reportVersionIds: readonly string[],
): Promise<OutboundMessageRow[]> {
  if (reportVersionIds.length === 0) return [];
  return db
    .select()
    .from(hl7Messages)
    .where(
      and(
        eq(hl7Messages.direction, "outbound"),
        isNull(hl7Messages.replayOf),
        // The case screen's "EHR" column is the HL7 result's; a FHIR push is seen in the message log.
        ne(hl7Messages.messageType, fhirPushMessageType),
        inArray(hl7Messages.reportVersionId, [...reportVersionIds]),
      ),
    )
    .orderBy(hl7Messages.createdAt);
}

/** Whether the case's order was already told `status` (ORC-1 SC with that ORC-5) by a message of its own. */
export async function hasOrderStatusMessage(db: Db, caseId: string, status: string): Promise<boolean> {
  const [row] = await db
    .select({ id: hl7Messages.id })
    .from(hl7Messages)
    .where(
      and(
        eq(hl7Messages.caseId, caseId),
        eq(hl7Messages.direction, "outbound"),
        eq(hl7Messages.messageType, "ORM^O01"),
        isNull(hl7Messages.replayOf),
        // The builder writes ORC as `ORC|SC|placer|filler||status|…` after a segment's `\r`: ORC-5 is its fifth field.
        sql`split_part(split_part(${hl7Messages.text}, ${"\rORC|"}, 2), '|', 5) = ${status}`,
      ),
    )
    .limit(1);
  return row !== undefined;
}
