import type { DisclosureKind, ReportDeliveryStatus, ReportLinkVoidReason, ReportVersionKind } from "@vigil/contract";
import { sql } from "drizzle-orm";
import { customType, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { cases } from "./case-tables.js";
import { createdAt } from "./columns.js";
import { caseRecords } from "./record-tables.js";

/** Raw bytes (`bytea`): PostgreSQL's driver gives a Buffer, PGlite a Uint8Array; rows always carry a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => Buffer.from(value),
});

/**
 * Every version of every signed report: version 1 when an interpretation is signed, one more per addendum. The PDF
 * is rendered once, in the signing transaction, and kept with its SHA-256 and the exact inputs it was made from
 * (`inputs`: the names, patient, texts and findings as they were then), so a later template change or a renamed
 * client never alters a delivered document, and the FHIR resource is built from the same facts. Append-only: a
 * trigger (migration) refuses UPDATE and DELETE.
 */
export const reportVersions = pgTable(
  "report_versions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    caseId: uuid("case_id")
      .notNull()
      .references(() => cases.id),
    clientId: uuid("client_id").notNull(),
    interpretationId: uuid("interpretation_id")
      .notNull()
      .references(() => caseRecords.id),
    /** The interpretation's revision this version is (the signing, or the addendum). */
    recordRevision: integer("record_revision").notNull(),
    version: integer("version").notNull(),
    kind: text("kind").notNull().$type<ReportVersionKind>(),
    /** The patient as the report names them: the accounting of disclosures is kept per MRN. */
    patientMrn: text("patient_mrn").notNull(),
    patientName: text("patient_name").notNull(),
    title: text("title").notNull(),
    inputs: jsonb("inputs").notNull().$type<Record<string, unknown>>(),
    pdf: bytea("pdf").notNull(),
    pdfSha256: text("pdf_sha256").notNull(),
    pdfBytes: integer("pdf_bytes").notNull(),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex("report_versions_interpretation_version_idx").on(table.interpretationId, table.version),
    index("report_versions_case_idx").on(table.caseId, table.issuedAt),
  ],
);

/**
 * One e-mail with a one-time download link to one contact. The link is never stored: it is signed (HMAC with a server
 * secret) over this row's id and `link_expires_at` (links/signed-links.ts); `opened_at` is when it was spent.
 */
export const reportDeliveries = pgTable(
  "report_deliveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    reportId: uuid("report_id")
      .notNull()
      .references(() => reportVersions.id),
    caseId: uuid("case_id").notNull(),
    contactId: uuid("contact_id"),
    recipientName: text("recipient_name").notNull(),
    recipientEmail: text("recipient_email").notNull(),
    status: text("status").notNull().$type<ReportDeliveryStatus>().default("pending"),
    lastError: text("last_error"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    linkExpiresAt: timestamp("link_expires_at", { withTimezone: true }).notNull(),
    openedAt: timestamp("opened_at", { withTimezone: true }),
    /**
     * When an unused link was withdrawn, and why: `staff`, `recipient-removed`, `address-changed` or `superseded`
     * (a newer link went to the same person). A voided link downloads nothing.
     */
    voidedAt: timestamp("voided_at", { withTimezone: true }),
    voidReason: text("void_reason").$type<ReportLinkVoidReason>(),
    voidedBySub: uuid("voided_by_sub"),
    voidedByUsername: text("voided_by_username"),
    /** The staff member who re-sent it; null for the delivery made at signing. */
    sentBySub: uuid("sent_by_sub"),
    sentByUsername: text("sent_by_username"),
    sentByName: text("sent_by_name"),
    createdAt: createdAt(),
  },
  (table) => [
    index("report_deliveries_report_idx").on(table.reportId, table.createdAt),
    index("report_deliveries_pending_idx").on(table.createdAt).where(sql`${table.status} = 'pending'`),
    // The unused links of a contact, voided when the contact goes or their address changes.
    index("report_deliveries_contact_idx")
      .on(table.contactId)
      .where(sql`${table.openedAt} is null and ${table.voidedAt} is null`),
  ],
);

/**
 * The accounting of disclosures (HIPAA §164.528): one row each time a patient's report left Vigil or was taken out
 * of it, with the patient as the report named them. Append-only (trigger in the migration).
 */
export const reportDisclosures = pgTable(
  "report_disclosures",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    kind: text("kind").notNull().$type<DisclosureKind>(),
    patientMrn: text("patient_mrn").notNull(),
    patientName: text("patient_name").notNull(),
    caseId: uuid("case_id").notNull(),
    clientId: uuid("client_id").notNull(),
    reportId: uuid("report_id").references(() => reportVersions.id),
    deliveryId: uuid("delivery_id"),
    recipient: text("recipient").notNull(),
    bySub: uuid("by_sub"),
    byUsername: text("by_username"),
    byName: text("by_name"),
    ip: text("ip"),
  },
  (table) => [index("report_disclosures_patient_idx").on(table.patientMrn, table.at)],
);
