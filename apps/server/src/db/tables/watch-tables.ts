import type { CasePriority, CaseStage, ClockKind, ClockState } from "@vigil/contract";
import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { cases } from "./case-tables.js";
import { createdAt } from "./columns.js";

/**
 * The running service clocks of every open case (PRODUCT.md §10), kept for the board: derivable from the case's
 * records and history (modules/watch/clock-rules.ts), but the board sorts thousands of open cases by time to breach
 * on every read, so each write to a case recomputes its rows in the same transaction. Only running clocks are
 * kept; `is_next` marks the case's earliest one (the board's row). The "due soon" point is not stored: it follows
 * the configured share (WATCH_DUE_SOON_SHARE) of `window_minutes`, applied when read. Stage, priority and client are copies of the
 * case's, refreshed with it, so the board filters without a join.
 */
export const caseClocks = pgTable(
  "case_clocks",
  {
    caseId: uuid("case_id")
      .notNull()
      .references(() => cases.id, { onDelete: "cascade" }),
    kind: text("kind").notNull().$type<ClockKind>(),
    clientId: uuid("client_id").notNull(),
    stage: text("stage").notNull().$type<CaseStage>(),
    priority: text("priority").notNull().$type<CasePriority>(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
    dueAt: timestamp("due_at", { withTimezone: true }).notNull(),
    windowMinutes: integer("window_minutes").notNull(),
    /** The owner of the next step; null username = the coordinators. */
    ownerSub: uuid("owner_sub"),
    ownerUsername: text("owner_username"),
    ownerName: text("owner_name"),
    isNext: boolean("is_next").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.caseId, table.kind] }),
    index("case_clocks_next_due_idx").on(table.dueAt).where(sql`${table.isNext}`),
    index("case_clocks_kind_due_idx").on(table.kind, table.dueAt),
    index("case_clocks_owner_due_idx").on(table.ownerUsername, table.dueAt),
    index("case_clocks_client_due_idx").on(table.clientId, table.dueAt),
  ],
);

/**
 * Every write to a case, in commit order of the writes' transactions' ids: what the event stream sends (and replays
 * from `Last-Event-ID`). Rows name the case and what changed, never patient data; they are pruned after a day.
 */
export const caseEvents = pgTable(
  "case_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    caseId: uuid("case_id").notNull(),
    clientId: uuid("client_id").notNull(),
    /** What changed: `stage`, `assignment`, `record`, `case`, `clocks`… (a hint for screens; they re-read). */
    change: text("change").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("case_events_at_idx").on(table.at)],
);

/**
 * In-app notices to a clock's owner when it turns due soon or overdue. The unique key is the deduplication across
 * instances: whichever sweep inserts first wins, the others' inserts do nothing.
 */
export const clockAlerts = pgTable(
  "clock_alerts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    recipientUsername: text("recipient_username").notNull(),
    caseId: uuid("case_id")
      .notNull()
      .references(() => cases.id, { onDelete: "cascade" }),
    kind: text("kind").notNull().$type<ClockKind>(),
    state: text("state").notNull().$type<Extract<ClockState, "due-soon" | "overdue">>(),
    dueAt: timestamp("due_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    readAt: timestamp("read_at", { withTimezone: true }),
    /** Set when the e-mail copy was handed to the mail delivery (users who opted in). */
    emailedAt: timestamp("emailed_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("clock_alerts_once_idx").on(
      table.recipientUsername,
      table.caseId,
      table.kind,
      table.dueAt,
      table.state,
    ),
    index("clock_alerts_recipient_idx").on(table.recipientUsername, table.createdAt),
  ],
);

/** What each user wants besides the in-app list; no row = the defaults (no e-mail). */
export const notificationPreferences = pgTable("notification_preferences", {
  username: text("username").primaryKey(),
  emailClockAlerts: boolean("email_clock_alerts").notNull().default(false),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
