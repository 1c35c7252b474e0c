import type { AuditOutcome } from "@vigil/contract";
import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns.js";

/**
 * Who did what, when, from where, and how it ended. Patient-data reads and all writes land here. Refusals of public
 * calls repeated from one address within a window are one row (`repeat_key` names the action, address and window;
 * `repeat_count` how many), so no caller without an account can grow the log by more than a row a window. Kept for
 * `AUDIT_RETENTION_DAYS`, then archived and pruned (audit/audit-retention.ts).
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    actorSub: uuid("actor_sub"),
    actorUsername: text("actor_username"),
    action: text("action").notNull(),
    targetType: text("target_type"),
    targetId: text("target_id"),
    outcome: text("outcome").notNull().$type<AuditOutcome>(),
    ip: text("ip"),
    userAgent: text("user_agent"),
    details: jsonb("details"),
    repeatKey: text("repeat_key"),
    repeatCount: integer("repeat_count").notNull().default(1),
  },
  (table) => [
    // Every read of patient data inserts a row, and each index is one more insert: only what a query uses is kept.
    // The upsert of a repeated refusal; only such rows have a key, so the others add nothing to it.
    uniqueIndex("audit_events_repeat_key_idx")
      .on(table.repeatKey)
      .where(sql`${table.repeatKey} is not null`),
    index("audit_events_at_idx").on(table.at),
    index("audit_events_target_idx").on(table.targetType, table.targetId, table.at),
    index("audit_events_action_idx").on(table.action, table.at),
    // The audit viewer's user, case and client filters (modules/audit/audit-repository.ts).
    index("audit_events_actor_username_idx").on(sql`lower(${table.actorUsername})`, table.at),
    index("audit_events_details_case_idx")
      .on(sql`(${table.details}->>'caseId')`)
      .where(sql`${table.details}->>'caseId' is not null`),
    index("audit_events_details_client_idx")
      .on(sql`(${table.details}->>'clientId')`)
      .where(sql`${table.details}->>'clientId' is not null`),
  ],
);

/** Messages to users (codes, temporary passwords) when no transport is configured; read by admins and tests. */
export const outbox = pgTable("outbox", {
  id: uuid("id").primaryKey().defaultRandom(),
  channel: text("channel").notNull(),
  recipient: text("recipient").notNull(),
  subject: text("subject").notNull(),
  body: text("body").notNull(),
  createdAt: createdAt(),
  sentAt: timestamp("sent_at", { withTimezone: true }),
});
