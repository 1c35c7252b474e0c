import type { BugContext, BugSeverity, BugStatus } from "@vigil/contract";
import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgSequence, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns.js";

/** Bug report numbers people can say aloud (BUG-42). */
export const bugReportNumberSequence = pgSequence("bug_report_number_seq", { startWith: 1 });

/**
 * Bug reports: what the user wrote, where they were and what they ran (`context`, the contract's
 * shape), and the current status; every change is a row of `bug_report_events` and an audit event.
 */
export const bugReports = pgTable(
  "bug_reports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    number: integer("number").notNull(),
    title: text("title").notNull(),
    description: text("description").notNull(),
    stepsToReproduce: text("steps_to_reproduce").notNull(),
    severity: text("severity").notNull().$type<BugSeverity>(),
    status: text("status").$type<BugStatus>().notNull().default("open"),
    context: jsonb("context").notNull().$type<BugContext>(),
    pageUrl: text("page_url").notNull(),
    reporterSub: uuid("reporter_sub"),
    reporterUsername: text("reporter_username").notNull(),
    reporterName: text("reporter_name"),
    version: integer("version").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex("bug_reports_number_idx").on(table.number),
    index("bug_reports_created_idx").on(table.createdAt),
    index("bug_reports_status_idx").on(table.status, table.createdAt),
    index("bug_reports_reporter_idx").on(sql`lower(${table.reporterUsername})`, table.createdAt),
  ],
);

/** A report's history: its filing (`from_status` null) and each status change with its comment. */
export const bugReportEvents = pgTable(
  "bug_report_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    reportId: uuid("report_id")
      .notNull()
      .references(() => bugReports.id),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    bySub: uuid("by_sub"),
    byUsername: text("by_username").notNull(),
    byName: text("by_name"),
    fromStatus: text("from_status").$type<BugStatus>(),
    toStatus: text("to_status").notNull().$type<BugStatus>(),
    comment: text("comment").notNull(),
  },
  (table) => [index("bug_report_events_report_idx").on(table.reportId, table.at)],
);
