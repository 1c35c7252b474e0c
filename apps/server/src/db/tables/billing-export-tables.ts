import type { BillingExportChanges, BillingExportDocument, BillingExportFormat } from "@vigil/contract";
import { date, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * The company's account names that exports for the accountant post to (one company per installation, one row):
 * QuickBooks and Xero need the names or codes of the company's own chart of accounts.
 */
export const billingExportAccounts = pgTable("billing_export_accounts", {
  company: text("company").primaryKey().default("company"),
  serviceItem: text("service_item").notNull(),
  incomeAccount: text("income_account").notNull(),
  creditNotesAccount: text("credit_notes_account").notNull(),
  receivablesAccount: text("receivables_account").notNull(),
  undepositedFundsAccount: text("undeposited_funds_account").notNull(),
  taxAccount: text("tax_account").notNull(),
  taxType: text("tax_type").notNull(),
  version: integer("version").notNull().default(1),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  updatedByUsername: text("updated_by_username").notNull(),
});

/**
 * Each export handed to the accountant: the period, the format, what it contained (each document with a
 * fingerprint of what was exported for it) and what changed since the previous export of the same period.
 */
export const billingExports = pgTable(
  "billing_exports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    periodFrom: date("period_from", { mode: "string" }).notNull(),
    periodTo: date("period_to", { mode: "string" }).notNull(),
    format: text("format").notNull().$type<BillingExportFormat>(),
    documents: jsonb("documents").notNull().$type<BillingExportDocument[]>(),
    changes: jsonb("changes").$type<BillingExportChanges>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    createdByUsername: text("created_by_username").notNull(),
  },
  (table) => [index("billing_exports_period_idx").on(table.periodFrom, table.periodTo, table.createdAt)],
);
