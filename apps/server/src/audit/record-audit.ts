import type { Db } from "../db/client.js";
import { auditEvents } from "../db/schema.js";

export type AuditEvent = {
  action: string;
  outcome: "success" | "failure" | "denied";
  actor?: { sub?: string | null; username?: string | null } | undefined;
  target?: { type: string; id: string } | undefined;
  ip?: string | undefined;
  /** The caller's `User-Agent` header, where there is one. */
  userAgent?: string | undefined;
  details?: Record<string, unknown> | undefined;
};

/**
 * Writes one audit event. Pass the transaction of the write being audited so both land or neither does.
 * The audit log keeps the true reason of a failure even where the caller is told less.
 */
export async function recordAudit(db: Db, event: AuditEvent): Promise<void> {
  await db.insert(auditEvents).values({
    action: event.action,
    outcome: event.outcome,
    actorSub: event.actor?.sub ?? null,
    actorUsername: event.actor?.username ?? null,
    targetType: event.target?.type ?? null,
    targetId: event.target?.id ?? null,
    ip: event.ip ?? null,
    userAgent: event.userAgent ?? null,
    details: event.details ?? null,
  });
}
