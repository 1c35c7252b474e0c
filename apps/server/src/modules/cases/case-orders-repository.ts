import type { CaseOrder } from "@vigil/contract";
import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { preparedOnce } from "../../db/prepared-once.js";
import { caseOrders } from "../../db/schema.js";

/** The hospital order a case was opened from (written by the interfaces module), as the case screen shows it. */
export async function findCaseOrder(db: Db, caseId: string): Promise<CaseOrder | null> {
  const statement = preparedOnce(db, "case-order", () =>
    db
      .select()
      .from(caseOrders)
      .where(eq(caseOrders.caseId, sql.placeholder("caseId")))
      .limit(1)
      .prepare(""),
  );
  const [row] = await statement.execute({ caseId });
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
