import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { caseOrders, hl7Messages } from "../../db/schema.js";

/**
 * The message log as the FHIR orders read it: a hospital's create of a resource for a case is a processed inbound
 * row of that type (`FHIR Task`), so whether the Task was already requested is the log's to say.
 */
export async function findFhirOrderLog(
  db: Db,
  clientId: string,
  caseId: string,
  messageType: string,
): Promise<{ id: string } | undefined> {
  const [row] = await db
    .select({ id: hl7Messages.id })
    .from(hl7Messages)
    .where(
      and(
        eq(hl7Messages.clientId, clientId),
        eq(hl7Messages.caseId, caseId),
        eq(hl7Messages.direction, "inbound"),
        eq(hl7Messages.messageType, messageType),
        eq(hl7Messages.status, "processed"),
      ),
    )
    .limit(1);
  return row;
}

/** The order a case of this client was made from by an interface (HL7 v2 or FHIR); undefined for a staff-made case. */
export async function findCaseOrderOfClient(db: Db, clientId: string, caseId: string) {
  const [row] = await db
    .select()
    .from(caseOrders)
    .where(and(eq(caseOrders.clientId, clientId), eq(caseOrders.caseId, caseId)))
    .limit(1);
  return row;
}
