import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { caseOrders, hl7Messages } from "../../db/schema.js";

export type Hl7MessageRow = typeof hl7Messages.$inferSelect;
export type Hl7MessageValues = typeof hl7Messages.$inferInsert;
export type CaseOrderRow = typeof caseOrders.$inferSelect;

/** The original (not a replay) inbound message a sender sent under this MSH-10. */
export async function findInboundMessage(
  db: Db,
  sender: { sendingApplication: string; sendingFacility: string; controlId: string },
): Promise<Hl7MessageRow | undefined> {
  const [row] = await db
    .select()
    .from(hl7Messages)
    .where(
      and(
        eq(hl7Messages.direction, "inbound"),
        isNull(hl7Messages.replayOf),
        eq(hl7Messages.sendingApplication, sender.sendingApplication),
        eq(hl7Messages.sendingFacility, sender.sendingFacility),
        eq(hl7Messages.controlId, sender.controlId),
      ),
    )
    .limit(1);
  return row;
}

/**
 * Inserts the message row unless the sender's MSH-10 is already there; undefined then. Against a concurrent insert
 * of the same MSH-10 not yet committed, PostgreSQL waits for that transaction: the unique index decides who won.
 */
export async function insertInboundMessage(db: Db, values: Hl7MessageValues): Promise<Hl7MessageRow | undefined> {
  const [row] = await db
    .insert(hl7Messages)
    .values(values)
    .onConflictDoNothing({
      target: [hl7Messages.sendingApplication, hl7Messages.sendingFacility, hl7Messages.controlId],
      where: sql`${hl7Messages.direction} = 'inbound' and ${hl7Messages.replayOf} is null`,
    })
    .returning();
  return row;
}

export async function updateInboundMessage(db: Db, id: string, values: Partial<Hl7MessageValues>): Promise<void> {
  await db.update(hl7Messages).set(values).where(eq(hl7Messages.id, id));
}

export async function findOrderByPlacer(
  db: Db,
  clientId: string,
  placerOrderNumber: string,
): Promise<CaseOrderRow | undefined> {
  const [row] = await db
    .select()
    .from(caseOrders)
    .where(and(eq(caseOrders.clientId, clientId), eq(caseOrders.placerOrderNumber, placerOrderNumber)))
    .limit(1);
  return row;
}

export async function insertCaseOrder(db: Db, values: typeof caseOrders.$inferInsert): Promise<CaseOrderRow> {
  const [row] = await db.insert(caseOrders).values(values).returning();
  return row as CaseOrderRow;
}

export async function updateCaseOrder(
  db: Db,
  caseId: string,
  values: Partial<typeof caseOrders.$inferInsert>,
): Promise<void> {
  await db.update(caseOrders).set(values).where(eq(caseOrders.caseId, caseId));
}

/** Marks the orders of these cases discharged (the first discharge is kept). */
export async function markOrdersDischarged(db: Db, caseIds: readonly string[], at: Date): Promise<void> {
  if (caseIds.length === 0) return;
  await db
    .update(caseOrders)
    .set({ dischargedAt: at })
    .where(and(inArray(caseOrders.caseId, caseIds), isNull(caseOrders.dischargedAt)));
}
