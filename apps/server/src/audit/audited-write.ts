import type { AuditEvent } from "./record-audit.js";

/** Who makes a change and from where: what every audit row of a write records. */
export type Actor = { sub: string; username: string; ip?: string | undefined; userAgent?: string | undefined };

/** The audit event of a successful write by `actor`. */
export function auditedWrite(
  actor: Actor,
  action: string,
  target: { type: string; id: string },
  details: Record<string, unknown>,
): AuditEvent {
  return {
    action,
    outcome: "success",
    actor: { sub: actor.sub, username: actor.username },
    target,
    ip: actor.ip,
    userAgent: actor.userAgent,
    details,
  };
}

/** Field-by-field differences between two plain records, for audit details ("before/after" of an update). */
export function changesBetween<T extends Record<string, unknown>>(
  before: T,
  after: T,
  fields: readonly (keyof T & string)[],
): Record<string, { from: unknown; to: unknown }> {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const field of fields) {
    if (JSON.stringify(before[field]) !== JSON.stringify(after[field])) {
      changes[field] = { from: before[field] ?? null, to: after[field] ?? null };
    }
  }
  return changes;
}
