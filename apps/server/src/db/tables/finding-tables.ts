import type {
  CriticalFindingKind,
  CriticalFindingStatus,
  FindingDeliveryPurpose,
  FindingDeliveryStatus,
  FindingRecipientKind,
} from "@vigil/contract";
import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { cases } from "./case-tables.js";
import { createdAt } from "./columns.js";
import { caseRecords } from "./record-tables.js";

/**
 * Critical findings (PRODUCT.md §11). Each is also an event record on its case (`event_record_id`, with that
 * record's revisions); this row keeps the loop: the protocol's window, who was told, the acknowledgement or the
 * cancellation, and the escalation schedule. `next_escalation_at` makes the table its own job queue: while a finding
 * is open, whichever instance locks it first (`FOR UPDATE SKIP LOCKED`) after that time sends the next escalation,
 * so it happens once across instances and survives restarts.
 */
export const criticalFindings = pgTable(
  "critical_findings",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    caseId: uuid("case_id")
      .notNull()
      .references(() => cases.id),
    clientId: uuid("client_id").notNull(),
    eventRecordId: uuid("event_record_id")
      .notNull()
      .references(() => caseRecords.id),
    kind: text("kind").notNull().$type<CriticalFindingKind>(),
    onsetAt: timestamp("onset_at", { withTimezone: true }).notNull(),
    description: text("description").notNull(),
    raisedAt: timestamp("raised_at", { withTimezone: true }).notNull(),
    raisedBySub: uuid("raised_by_sub"),
    raisedByUsername: text("raised_by_username").notNull(),
    raisedByName: text("raised_by_name"),
    /** The protocol revision the window came from (the case's pinned one, else the client's current one). */
    protocolRevisionId: uuid("protocol_revision_id"),
    windowMinutes: integer("window_minutes").notNull(),
    dueAt: timestamp("due_at", { withTimezone: true }).notNull(),
    status: text("status").notNull().$type<CriticalFindingStatus>().default("open"),
    /** When the first message to anyone was handed to its transport. */
    firstNotifiedAt: timestamp("first_notified_at", { withTimezone: true }),
    acknowledgedAt: timestamp("acknowledged_at", { withTimezone: true }),
    acknowledgedName: text("acknowledged_name"),
    acknowledgedVia: text("acknowledged_via").$type<"link" | "phone">(),
    acknowledgedRecipientId: uuid("acknowledged_recipient_id"),
    readBackConfirmed: boolean("read_back_confirmed").notNull().default(false),
    acknowledgementNote: text("acknowledgement_note").notNull().default(""),
    recordedBySub: uuid("recorded_by_sub"),
    recordedByUsername: text("recorded_by_username"),
    recordedByName: text("recorded_by_name"),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    cancelReason: text("cancel_reason"),
    cancelledBySub: uuid("cancelled_by_sub"),
    cancelledByUsername: text("cancelled_by_username"),
    cancelledByName: text("cancelled_by_name"),
    /** Escalations sent so far; the n-th one tells the (n+1)-th flagged contact and the coordinators. */
    escalations: integer("escalations").notNull().default(0),
    /** Due time of the next escalation while open; null once acknowledged or cancelled. */
    nextEscalationAt: timestamp("next_escalation_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    index("critical_findings_case_idx").on(table.caseId, table.raisedAt),
    index("critical_findings_client_idx").on(table.clientId, table.raisedAt),
    index("critical_findings_escalation_idx").on(table.nextEscalationAt).where(sql`${table.status} = 'open'`),
  ],
);

/**
 * Everyone a finding was sent to, at which escalation level, with their one-time acknowledgement link's expiry and
 * use. The link itself is never stored: it is signed (HMAC with a server secret) over the recipient's id and expiry,
 * so the sender can rebuild it and a forged or altered link fails before any lookup.
 */
export const findingRecipients = pgTable(
  "finding_recipients",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    findingId: uuid("finding_id")
      .notNull()
      .references(() => criticalFindings.id),
    kind: text("kind").notNull().$type<FindingRecipientKind>(),
    name: text("name").notNull(),
    contactId: uuid("contact_id"),
    userSub: uuid("user_sub"),
    username: text("username"),
    level: integer("level").notNull(),
    notifiedAt: timestamp("notified_at", { withTimezone: true }).notNull(),
    linkExpiresAt: timestamp("link_expires_at", { withTimezone: true }).notNull(),
    linkUsedAt: timestamp("link_used_at", { withTimezone: true }),
  },
  (table) => [
    index("finding_recipients_finding_idx").on(table.findingId),
    // One notice per person and level, whichever instance escalates.
    uniqueIndex("finding_recipients_once_idx").on(
      table.findingId,
      table.level,
      table.kind,
      sql`coalesce(${table.contactId}::text, ${table.username})`,
    ),
  ],
);

/**
 * One message to one recipient over one channel: the delivery queue. A worker claims due rows with
 * `FOR UPDATE SKIP LOCKED` and a lease (`lease_until`), sends outside the transaction, then marks the row sent or
 * schedules a retry with back-off; a lease that runs out (the instance died mid-send) lets another instance retry.
 */
export const findingDeliveries = pgTable(
  "finding_deliveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    recipientId: uuid("recipient_id")
      .notNull()
      .references(() => findingRecipients.id),
    findingId: uuid("finding_id")
      .notNull()
      .references(() => criticalFindings.id),
    /** The finding itself (raise or escalation), or the word that it was cancelled, to those already told. */
    purpose: text("purpose").notNull().$type<FindingDeliveryPurpose>().default("notice"),
    channel: text("channel").notNull().$type<"email" | "sms">(),
    destination: text("destination").notNull(),
    status: text("status").notNull().$type<FindingDeliveryStatus>().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    index("finding_deliveries_finding_idx").on(table.findingId),
    index("finding_deliveries_due_idx").on(table.nextAttemptAt).where(sql`${table.status} in ('pending', 'sending')`),
  ],
);
