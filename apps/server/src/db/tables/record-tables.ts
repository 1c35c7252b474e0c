import type { MonitoringMode, RecordKind, RevisionChange, TimeLogData } from "@vigil/contract";
import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { cases } from "./case-tables.js";
import { createdAt, updatedAt } from "./columns.js";

type TimeLogActivity = TimeLogData["activity"];

/**
 * Per-case records (PRODUCT.md §4): one row per item holding its current state (the latest revision), so lists
 * read one row per item and a new revision can lock the item and compare its base. `data` is the kind's contract
 * shape, validated by the contract before it is written; `meta` holds what the server decides (an
 * interpretation's status, signer and addenda).
 */
export const caseRecords = pgTable(
  "case_records",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    caseId: uuid("case_id")
      .notNull()
      .references(() => cases.id),
    kind: text("kind").notNull().$type<RecordKind>(),
    revision: integer("revision").notNull().default(1),
    deleted: boolean("deleted").notNull().default(false),
    data: jsonb("data").notNull(),
    meta: jsonb("meta").notNull().default(sql`'{}'::jsonb`),
    createdBySub: uuid("created_by_sub"),
    createdByUsername: text("created_by_username").notNull(),
    createdByName: text("created_by_name"),
    createdAt: createdAt(),
    updatedBySub: uuid("updated_by_sub"),
    updatedByUsername: text("updated_by_username").notNull(),
    updatedByName: text("updated_by_name"),
    updatedAt: updatedAt(),
  },
  (table) => [
    index("case_records_case_kind_idx").on(table.caseId, table.kind, table.createdAt),
    // The live review checks of intermittent monitoring, which billing's CPT suggestions read for every case of a
    // statement: only those rows, instead of every event of each case with its JSON type compared.
    index("case_records_review_checks_idx")
      .on(table.caseId)
      .where(sql`${table.kind} = 'event' and not ${table.deleted} and ${table.data}->>'type' = 'review-check'`),
  ],
);

/** Every revision of every record, append-only; (record, revision) is unique so a lost race cannot add a twin. */
export const caseRecordRevisions = pgTable(
  "case_record_revisions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    recordId: uuid("record_id")
      .notNull()
      .references(() => caseRecords.id),
    caseId: uuid("case_id")
      .notNull()
      .references(() => cases.id),
    kind: text("kind").notNull().$type<RecordKind>(),
    revision: integer("revision").notNull(),
    change: text("change").notNull().$type<RevisionChange>(),
    deleted: boolean("deleted").notNull().default(false),
    reason: text("reason"),
    data: jsonb("data").notNull(),
    meta: jsonb("meta").notNull().default(sql`'{}'::jsonb`),
    authorSub: uuid("author_sub"),
    authorUsername: text("author_username").notNull(),
    authorName: text("author_name"),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("case_record_revisions_record_revision_idx").on(table.recordId, table.revision)],
);

/**
 * Time logs' current state in typed columns, kept in the same transaction as each revision: overlap checks,
 * technologists' concurrent patients, billable hours and reports query these through indexes instead
 * of reading JSON.
 */
export const caseTimeLogs = pgTable(
  "case_time_logs",
  {
    recordId: uuid("record_id")
      .primaryKey()
      .references(() => caseRecords.id),
    caseId: uuid("case_id")
      .notNull()
      .references(() => cases.id),
    technologistSub: uuid("technologist_sub"),
    technologistUsername: text("technologist_username").notNull(),
    technologistName: text("technologist_name"),
    activity: text("activity").notNull().$type<TimeLogActivity>(),
    mode: text("mode").notNull().$type<MonitoringMode>(),
    video: boolean("video").notNull(),
    billable: boolean("billable").notNull(),
    channels: integer("channels"),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
    /** null while running. */
    endedAt: timestamp("ended_at", { withTimezone: true }),
    deleted: boolean("deleted").notNull().default(false),
    /**
     * The most distinct cases the technologist had at once in this mode during the log (db/concurrent-peaks.ts),
     * kept on write; null for a deleted log, and until the first start after the migration that added it fills it.
     */
    concurrentPeak: integer("concurrent_peak"),
  },
  (table) => [
    index("case_time_logs_case_idx").on(table.caseId, table.startedAt),
    index("case_time_logs_technologist_idx").on(table.technologistUsername, table.startedAt),
    index("case_time_logs_running_idx")
      .on(table.technologistUsername)
      .where(sql`${table.endedAt} is null and not ${table.deleted}`),
    index("case_time_logs_billable_idx").on(table.startedAt).where(sql`${table.billable} and not ${table.deleted}`),
    // The longest finished log and the oldest running one, each one index probe: how far back before a window a
    // log overlapping it can have started (db/time-log-overlaps.ts), which gives interval queries a lower bound.
    index("case_time_logs_duration_idx")
      .on(sql`(${table.endedAt} - ${table.startedAt})`)
      .where(sql`${table.endedAt} is not null`),
    index("case_time_logs_running_start_idx").on(table.startedAt).where(sql`${table.endedAt} is null`),
    // Empty once filled: the start's "is any peak missing?" is one probe, not a scan of every log.
    index("case_time_logs_peak_missing_idx")
      .on(table.technologistUsername)
      .where(sql`${table.concurrentPeak} is null and not ${table.deleted}`),
  ],
);
