import { sql } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { preparedOnce } from "../db/prepared-once.js";
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
 * The longest header text a row keeps (as the identity endpoint always did): a caller without an account must not be
 * able to store 15,000 characters per call.
 */
export const auditTextLimit = 512;

function capped(text: string | null | undefined): string | null {
  return text === undefined || text === null ? null : text.slice(0, auditTextLimit);
}

/** An event's column values, keyed by the schema's field names. */
export function auditValuesOf(event: AuditEvent) {
  return {
    action: event.action,
    outcome: event.outcome,
    actorSub: event.actor?.sub ?? null,
    actorUsername: capped(event.actor?.username),
    targetType: event.target?.type ?? null,
    targetId: event.target?.id ?? null,
    ip: capped(event.ip),
    userAgent: capped(event.userAgent),
    details: event.details ?? null,
  };
}

/**
 * Writes one audit event. Pass the transaction of the write being audited so both land or neither does.
 * The audit log keeps the true reason of a failure even where the caller is told less.
 */
export async function recordAudit(db: Db, event: AuditEvent): Promise<void> {
  await insertAudit(db).execute(auditValuesOf(event));
}

/**
 * The insert built once per database: every read of patient data writes a row, and drizzle building the statement
 * afresh was a sizeable part of the server's own work on a read (docs/operations.md, "Responses parsed by compiled
 * schemas"). The values go in as placeholders, which drizzle does not pass through the columns' own mapping:
 * `details` reaches the driver as an object, which node-postgres and PGlite both write as JSON.
 */
function insertAudit(db: Db) {
  return preparedOnce(db, "audit-insert", () =>
    db
      .insert(auditEvents)
      .values({
        action: sql.placeholder("action"),
        outcome: sql.placeholder("outcome"),
        actorSub: sql.placeholder("actorSub"),
        actorUsername: sql.placeholder("actorUsername"),
        targetType: sql.placeholder("targetType"),
        targetId: sql.placeholder("targetId"),
        ip: sql.placeholder("ip"),
        userAgent: sql.placeholder("userAgent"),
        details: sql.placeholder("details"),
      })
      .prepare(""),
  );
}

/**
 * Records a refusal that may repeat (a forged link, again and again from one address): the first of a window is a row,
 * every further one with the same `key` only counts on it (`repeat_count`, and `details.lastAt`). So a caller without an
 * account adds at most one row per key and window, however fast it calls. `key` should name the action, the address
 * and the window's start; the row keeps the first call's user agent.
 */
export async function recordRepeatedAudit(db: Db, event: AuditEvent, key: string, now: Date): Promise<number> {
  const values = auditValuesOf(event);
  const [row] = await db
    .insert(auditEvents)
    .values({
      at: now,
      repeatKey: key,
      ...values,
      // biome-ignore lint/plugin/leading-spread-then-keys: lastAt wins over the caller's details (any keys)
      details: { ...values.details, lastAt: now.toISOString() },
    })
    .onConflictDoUpdate({
      target: auditEvents.repeatKey,
      // The index is partial (audit_events_repeat_key_idx): the conflict names its predicate to be matched to it.
      targetWhere: sql`${auditEvents.repeatKey} is not null`,
      set: {
        repeatCount: sql`${auditEvents.repeatCount} + 1`,
        details: sql`coalesce(${auditEvents.details}, '{}'::jsonb) || jsonb_build_object('lastAt', ${now.toISOString()}::text)`,
      },
    })
    .returning({ count: auditEvents.repeatCount });
  return row?.count ?? 1;
}
