import type { CptSuggestion } from "@vigil/contract";
import {
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { cases } from "./case-tables.js";
import { clients } from "./client-tables.js";

/**
 * A client's own hourly rate for a month (`YYYY-MM`, in the client's time zone). Months without a row inherit the
 * latest earlier one (computed, never stored). Money is `numeric`, never a float. Each change names the version it
 * replaces; the full history is kept in `billing_rate_changes`.
 */
export const billingRates = pgTable(
  "billing_rates",
  {
    clientId: uuid("client_id")
      .notNull()
      .references(() => clients.id),
    month: text("month").notNull(),
    hourlyRate: numeric("hourly_rate", { precision: 12, scale: 2 }).notNull(),
    version: integer("version").notNull().default(1),
    setAt: timestamp("set_at", { withTimezone: true }).notNull().defaultNow(),
    setBySub: uuid("set_by_sub"),
    setByUsername: text("set_by_username").notNull(),
    setByName: text("set_by_name"),
    reason: text("reason"),
  },
  (table) => [uniqueIndex("billing_rates_client_month_idx").on(table.clientId, table.month)],
);

/** Every rate ever set, append-only: what it replaced, who, when and why (a reason once the month is invoiced). */
export const billingRateChanges = pgTable(
  "billing_rate_changes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    clientId: uuid("client_id")
      .notNull()
      .references(() => clients.id),
    month: text("month").notNull(),
    hourlyRate: numeric("hourly_rate", { precision: 12, scale: 2 }).notNull(),
    previousRate: numeric("previous_rate", { precision: 12, scale: 2 }),
    version: integer("version").notNull(),
    invoiced: boolean("invoiced").notNull(),
    reason: text("reason"),
    changedAt: timestamp("changed_at", { withTimezone: true }).notNull().defaultNow(),
    changedBySub: uuid("changed_by_sub"),
    changedByUsername: text("changed_by_username").notNull(),
    changedByName: text("changed_by_name"),
  },
  (table) => [index("billing_rate_changes_client_month_idx").on(table.clientId, table.month, table.changedAt)],
);

/**
 * Issued statements, append-only: a client month's statement as it was sent, never updated or deleted (later
 * changes of the month are shown as differences against it). `number` counts a client's statements 1, 2, 3… in
 * the order issued: it is taken as the client's highest + 1 under a lock on the client row, so it has no gaps;
 * the unique indexes make a race that slipped past the lock fail rather than reuse a number or a month.
 */
export const billingStatements = pgTable(
  "billing_statements",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    clientId: uuid("client_id")
      .notNull()
      .references(() => clients.id),
    month: text("month").notNull(),
    number: integer("number").notNull(),
    currency: text("currency").notNull(),
    clientName: text("client_name").notNull(),
    clientTimezone: text("client_timezone").notNull(),
    periodStart: timestamp("period_start", { withTimezone: true }).notNull(),
    periodEnd: timestamp("period_end", { withTimezone: true }).notNull(),
    hourlyRate: numeric("hourly_rate", { precision: 12, scale: 2 }).notNull(),
    rateFromMonth: text("rate_from_month").notNull(),
    totalHours: numeric("total_hours", { precision: 14, scale: 2 }).notNull(),
    totalAmount: numeric("total_amount", { precision: 18, scale: 2 }).notNull(),
    caseCount: integer("case_count").notNull(),
    roundingNote: text("rounding_note").notNull(),
    /** The digest of the live figures that were issued (the If-Match of the request), for a repeated request. */
    fingerprint: text("fingerprint").notNull(),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull().defaultNow(),
    issuedBySub: uuid("issued_by_sub"),
    issuedByUsername: text("issued_by_username").notNull(),
    issuedByName: text("issued_by_name"),
  },
  (table) => [
    uniqueIndex("billing_statements_client_number_idx").on(table.clientId, table.number),
    uniqueIndex("billing_statements_client_month_idx").on(table.clientId, table.month),
  ],
);

/** The case lines of an issued statement, as issued (append-only, with the statement). */
export const billingStatementLines = pgTable(
  "billing_statement_lines",
  {
    statementId: uuid("statement_id")
      .notNull()
      .references(() => billingStatements.id),
    position: integer("position").notNull(),
    caseId: uuid("case_id")
      .notNull()
      .references(() => cases.id),
    caseNumber: text("case_number").notNull(),
    patientName: text("patient_name").notNull(),
    stage: text("stage").notNull(),
    hours: numeric("hours", { precision: 12, scale: 2 }).notNull(),
    amount: numeric("amount", { precision: 18, scale: 2 }).notNull(),
    logCount: integer("log_count").notNull(),
    /** The CPT suggestion as printed (the contract's `CptSuggestion`). */
    cpt: jsonb("cpt").notNull().$type<CptSuggestion>(),
  },
  (table) => [uniqueIndex("billing_statement_lines_statement_position_idx").on(table.statementId, table.position)],
);
