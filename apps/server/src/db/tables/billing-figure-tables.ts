import { boolean, date, index, integer, pgTable, primaryKey, uuid } from "drizzle-orm/pg-core";
import { cases } from "./case-tables.js";
import { clients } from "./client-tables.js";
import { caseRecords } from "./record-tables.js";

/**
 * Billable figures kept on write (db/billable-figures.ts maintains them in the time log's transaction): the whole
 * billable seconds of each case on each day of its client's calendar, from the finished, billable, live time logs
 * (a running log is added at read time, counted to now). The statement sums a case's days of a month, the report a
 * client's days, the overview a client's months — index reads instead of sums over every log.
 *
 * Billing counts whole seconds per log and window (billing-calendar.ts), so per-day floors are not quite additive:
 * a log over several days whose first and last pieces have fractions of a second worth one more second together
 * is kept in `billable_second_carries`, that second counting only in a window holding both ends. `log_count` is
 * the logs with a whole second on the day, `continued_count` those of them that also had one the day before: a
 * window's distinct logs are its days' logs minus the continued ones after its first day.
 *
 * `billable_seconds_monthly` folds both into calendar months, the window of the statement and the overview: a year
 * of every client is then one index row per case and month instead of one per case and day plus the carries.
 */
export const billableSecondsDaily = pgTable(
  "billable_seconds_daily",
  {
    caseId: uuid("case_id")
      .notNull()
      .references(() => cases.id),
    clientId: uuid("client_id")
      .notNull()
      .references(() => clients.id),
    /** The calendar day in the client's time zone. */
    day: date("day", { mode: "string" }).notNull(),
    seconds: integer("seconds").notNull(),
    logCount: integer("log_count").notNull(),
    continuedCount: integer("continued_count").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.caseId, table.day] }),
    // Every column a window's read needs is in the index, so the read never visits the table (index-only scans).
    index("billable_seconds_daily_client_idx").on(
      table.clientId,
      table.day,
      table.caseId,
      table.seconds,
      table.logCount,
      table.continuedCount,
    ),
  ],
);

/** One row per finished log whose split into days lost a whole second (see above). */
export const billableSecondCarries = pgTable(
  "billable_second_carries",
  {
    recordId: uuid("record_id")
      .primaryKey()
      .references(() => caseRecords.id),
    caseId: uuid("case_id")
      .notNull()
      .references(() => cases.id),
    clientId: uuid("client_id")
      .notNull()
      .references(() => clients.id),
    firstDay: date("first_day", { mode: "string" }).notNull(),
    lastDay: date("last_day", { mode: "string" }).notNull(),
    /** No single day of the log has a whole second: the log counts only in a window holding both ends. */
    countedAlone: boolean("counted_alone").notNull(),
  },
  (table) => [
    index("billable_second_carries_client_idx").on(
      table.clientId,
      table.lastDay,
      table.firstDay,
      table.caseId,
      table.countedAlone,
    ),
  ],
);

/**
 * Each case's whole billable seconds and distinct logs in each calendar month of its client's zone: its days' seconds
 * plus the carried seconds of logs wholly inside the month, its days' logs minus those continued from a day of the
 * same month (plus the logs counted only by their carry). Exactly what a month window reads from the two tables above.
 */
export const billableSecondsMonthly = pgTable(
  "billable_seconds_monthly",
  {
    caseId: uuid("case_id")
      .notNull()
      .references(() => cases.id),
    clientId: uuid("client_id")
      .notNull()
      .references(() => clients.id),
    /** The first day of the calendar month in the client's time zone. */
    month: date("month", { mode: "string" }).notNull(),
    seconds: integer("seconds").notNull(),
    logCount: integer("log_count").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.caseId, table.month] }),
    index("billable_seconds_monthly_client_idx").on(
      table.clientId,
      table.month,
      table.caseId,
      table.seconds,
      table.logCount,
    ),
  ],
);
