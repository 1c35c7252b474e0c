import type { Db } from "../../db/client.js";
import { auditEvents } from "../../db/schema.js";

export async function insertAuditEvent(db: Db, row: typeof auditEvents.$inferInsert): Promise<void> {
  await db.insert(auditEvents).values(row);
}
