import type {
  Hl7Direction,
  Hl7MessageStatus,
  Hl7ResultStyle,
  InterfaceDestination,
  InterfaceProfileContent,
} from "@vigil/contract";
import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { cases } from "./case-tables.js";
import { clients } from "./client-tables.js";
import { createdAt } from "./columns.js";

/**
 * A client's interface profile (docs/design/HL7.md): append-only revisions numbered per client, like the protocol's;
 * the latest is in force. The unique (client, revision) index makes two concurrent appends on one base impossible.
 * Which client owns an inbound identity (MSH-3/MSH-4) is decided on the latest revisions; the service keeps one
 * identity to one client.
 */
export const interfaceProfileRevisions = pgTable(
  "interface_profile_revisions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    clientId: uuid("client_id")
      .notNull()
      .references(() => clients.id),
    revision: integer("revision").notNull(),
    enabled: boolean("enabled").notNull(),
    sendingApplication: text("sending_application").notNull(),
    sendingFacility: text("sending_facility").notNull(),
    mrnAssigningAuthority: text("mrn_assigning_authority").notNull(),
    visitNumberSource: text("visit_number_source").notNull().$type<InterfaceProfileContent["visitNumberSource"]>(),
    receivingApplication: text("receiving_application").notNull(),
    receivingFacility: text("receiving_facility").notNull(),
    destination: jsonb("destination").$type<InterfaceDestination>(),
    resultStyle: text("result_style").notNull().$type<Hl7ResultStyle>(),
    hl7Version: text("hl7_version").notNull().$type<InterfaceProfileContent["hl7Version"]>(),
    orderStatusUpdates: boolean("order_status_updates").notNull(),
    changeNote: text("change_note"),
    authorSub: uuid("author_sub"),
    authorUsername: text("author_username").notNull(),
    authorName: text("author_name"),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex("interface_profile_revisions_client_revision_idx").on(table.clientId, table.revision),
    index("interface_profile_revisions_identity_idx").on(
      sql`lower(${table.sendingApplication})`,
      sql`lower(${table.sendingFacility})`,
    ),
  ],
);

/**
 * Every HL7 v2 message in and out, kept `HL7_LOG_DAYS`. An inbound message is stored with its effect in one
 * transaction before the commit ACK; a repeated MSH-10 from the same sender finds its row and gets the same ACK
 * (the unique index). An outbound result message has one row per report version and style, so it is built once
 * and its MSH-10 never changes across retries.
 */
export const hl7Messages = pgTable(
  "hl7_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    direction: text("direction").notNull().$type<Hl7Direction>(),
    clientId: uuid("client_id").references(() => clients.id),
    /** MSH-9 as `ORM^O01`. */
    messageType: text("message_type").notNull(),
    controlId: text("control_id").notNull(),
    sendingApplication: text("sending_application").notNull(),
    sendingFacility: text("sending_facility").notNull(),
    patientMrn: text("patient_mrn"),
    orderNumber: text("order_number"),
    caseId: uuid("case_id").references(() => cases.id),
    reportVersionId: uuid("report_version_id"),
    /** Segments separated by `\r`, as on the wire. */
    text: text("text").notNull(),
    status: text("status").notNull().$type<Hl7MessageStatus>(),
    ackCode: text("ack_code"),
    ack: text("ack"),
    error: text("error"),
    attempts: integer("attempts").notNull().default(0),
    replayOf: uuid("replay_of"),
    /** Where an inbound message came from (the peer's address); never patient data. */
    peer: text("peer"),
    createdAt: createdAt(),
    processedAt: timestamp("processed_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("hl7_messages_inbound_control_idx")
      .on(table.sendingApplication, table.sendingFacility, table.controlId)
      .where(sql`${table.direction} = 'inbound' and ${table.replayOf} is null`),
    uniqueIndex("hl7_messages_outbound_version_idx")
      .on(table.reportVersionId, table.messageType)
      .where(
        sql`${table.direction} = 'outbound' and ${table.reportVersionId} is not null and ${table.replayOf} is null`,
      ),
    index("hl7_messages_created_idx").on(table.createdAt),
    index("hl7_messages_client_idx").on(table.clientId, table.createdAt),
    index("hl7_messages_case_idx").on(table.caseId),
    index("hl7_messages_mrn_idx").on(table.patientMrn),
    index("hl7_messages_order_idx").on(table.orderNumber),
    // The message log's search finds a control id alone (the unique index above needs the sender first).
    index("hl7_messages_control_idx").on(table.controlId),
  ],
);

/**
 * The order a case was created from when it arrived by interface (HL7 ORM/OML now, FHIR ServiceRequest later):
 * the hospital's placer order number is unique within the client, so a repeated or changed order finds its case.
 */
export const caseOrders = pgTable(
  "case_orders",
  {
    caseId: uuid("case_id")
      .primaryKey()
      .references(() => cases.id),
    clientId: uuid("client_id")
      .notNull()
      .references(() => clients.id),
    source: text("source").notNull().$type<"hl7" | "fhir">(),
    placerOrderNumber: text("placer_order_number").notNull(),
    fillerOrderNumber: text("filler_order_number").notNull(),
    visitNumber: text("visit_number"),
    orderingProvider: text("ordering_provider"),
    mrnAssigningAuthority: text("mrn_assigning_authority"),
    reason: text("reason"),
    location: text("location"),
    dischargedAt: timestamp("discharged_at", { withTimezone: true }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    cancelReason: text("cancel_reason"),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("case_orders_client_placer_idx").on(table.clientId, table.placerOrderNumber),
    index("case_orders_visit_idx").on(table.clientId, table.visitNumber),
  ],
);
