import type { Client, ProtocolRevision } from "@vigil/contract";
import { sql } from "drizzle-orm";
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
import { createdAt, updatedAt } from "./columns.js";

export const clients = pgTable(
  "clients",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    code: text("code").notNull(),
    status: text("status").$type<Client["status"]>().notNull().default("active"),
    timezone: text("timezone").notNull(),
    phone: text("phone"),
    addressLine1: text("address_line1"),
    addressLine2: text("address_line2"),
    city: text("city"),
    region: text("region"),
    postalCode: text("postal_code"),
    country: text("country"),
    notes: text("notes"),
    archivedAt: timestamp("archived_at", { withTimezone: true }),
    version: integer("version").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [uniqueIndex("clients_code_idx").on(sql`lower(${table.code})`), index("clients_name_idx").on(table.name)],
);

export const clientContacts = pgTable(
  "client_contacts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    clientId: uuid("client_id")
      .notNull()
      .references(() => clients.id),
    name: text("name").notNull(),
    role: text("role"),
    email: text("email"),
    phone: text("phone"),
    isPrimary: boolean("is_primary").notNull().default(false),
    notifyOnCritical: boolean("notify_on_critical").notNull().default(false),
    notes: text("notes"),
    /** Removal keeps the row (audited, recoverable by an operator); lists skip removed contacts. */
    removedAt: timestamp("removed_at", { withTimezone: true }),
    version: integer("version").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index("client_contacts_client_idx").on(table.clientId)],
);

export const clientUsefulLinks = pgTable(
  "client_useful_links",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    clientId: uuid("client_id")
      .notNull()
      .references(() => clients.id),
    title: text("title").notNull(),
    url: text("url").notNull(),
    description: text("description"),
    removedAt: timestamp("removed_at", { withTimezone: true }),
    version: integer("version").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index("client_useful_links_client_idx").on(table.clientId)],
);

/**
 * A client's protocol: append-only revisions, numbered 1, 2, 3… per client. The unique (client, revision)
 * index is what makes two concurrent appends on the same base impossible: the second insert fails.
 */
export const protocolRevisions = pgTable(
  "protocol_revisions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    clientId: uuid("client_id")
      .notNull()
      .references(() => clients.id),
    revision: integer("revision").notNull(),
    instructions: text("instructions").notNull().default(""),
    impedanceThresholdKohm: numeric("impedance_threshold_kohm", { precision: 6, scale: 2 }).notNull(),
    impedanceCheckIntervalHours: integer("impedance_check_interval_hours").notNull(),
    reviewTurnaroundHours: integer("review_turnaround_hours").notNull(),
    // Revisions written before the STAT clock existed read the contract's default.
    statAcknowledgeMinutes: integer("stat_acknowledge_minutes").notNull().default(60),
    criticalNotify: text("critical_notify").notNull().default(""),
    criticalNotifyWithinMinutes: integer("critical_notify_within_minutes").notNull(),
    transferForm: jsonb("transfer_form").notNull().$type<ProtocolRevision["transferForm"]>(),
    // Revisions written before reports were delivered name nobody.
    reportRecipients: jsonb("report_recipients")
      .notNull()
      .$type<ProtocolRevision["reportRecipients"]>()
      .default({ contactIds: [] }),
    changeNote: text("change_note"),
    authorSub: uuid("author_sub"),
    authorUsername: text("author_username").notNull(),
    authorName: text("author_name"),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("protocol_revisions_client_revision_idx").on(table.clientId, table.revision)],
);
