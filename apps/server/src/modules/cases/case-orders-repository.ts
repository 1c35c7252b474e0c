import type { CaseOrder } from "@vigil/contract";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { caseOrders } from "../../db/schema.js";

/** The hospital order a case was opened from (written by the interfaces module), as the case screen shows it. */
export async function findCaseOrder(db: Db, caseId: string): Promise<CaseOrder | null> {
  const [row] = await db.select().from(caseOrders).where(eq(caseOrders.caseId, caseId)).limit(1);
  if (!row) return null;
  return {
    source: row.source,
    placerOrderNumber: row.placerOrderNumber,
    fillerOrderNumber: row.fillerOrderNumber,
    visitNumber: row.visitNumber,
    orderingProvider: row.orderingProvider,
    mrnAssigningAuthority: row.mrnAssigningAuthority,
    reason: row.reason,
    location: row.location,
    dischargedAt: row.dischargedAt?.toISOString() ?? null,
    cancelledAt: row.cancelledAt?.toISOString() ?? null,
    cancelReason: row.cancelReason,
    receivedAt: row.receivedAt.toISOString(),
  };
}
