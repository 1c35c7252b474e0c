import { z } from "zod";
import { pageQuerySchema } from "../envelope.js";
import { authorSchema, idSchema, isoDateTimeSchema } from "./common.js";

/**
 * Hospital interfaces (docs/design/HL7.md): a client's interface profile, the HL7 v2 message log and what an order
 * that arrived by interface keeps on its case. The same profile later carries the FHIR side.
 */

/** A value that travels inside one HL7 component: none of the encoding characters, no line breaks. */
const hl7Identifier = z
  .string()
  .trim()
  .min(1, "is required")
  .max(180, "must be at most 180 characters")
  .regex(/^[^|^~\\&\r\n\t]+$/, "must not contain | ^ ~ \\ & or line breaks (HL7's separators)");

export const hl7ResultStyles = ["ORU^R01", "MDM^T02"] as const;
export const hl7ResultStyleSchema = z.enum(hl7ResultStyles);
export type Hl7ResultStyle = z.infer<typeof hl7ResultStyleSchema>;

export const hl7Versions = ["2.3.1", "2.4", "2.5", "2.5.1", "2.6"] as const;
export const hl7VersionSchema = z.enum(hl7Versions);

/** Where the hospital's visit (encounter) number is read from. */
export const visitNumberSources = ["PV1-19", "PID-18"] as const;
export const visitNumberSourceSchema = z.enum(visitNumberSources);

export const interfaceDestinationSchema = z.object({
  host: z
    .string()
    .trim()
    .min(1, "is required")
    .max(253, "must be at most 253 characters")
    .regex(/^[A-Za-z0-9.:-]+$/, "must be a host name or an IP address"),
  port: z.number().int().min(1, "must be between 1 and 65535").max(65_535, "must be between 1 and 65535"),
  tls: z.boolean().default(false),
  /** PEM of the CA that signed the hospital's certificate; null trusts the system's CAs. */
  caCertificate: z
    .string()
    .trim()
    .max(20_000)
    .regex(/-----BEGIN CERTIFICATE-----/, "must be a PEM certificate")
    .nullable()
    .default(null),
});
export type InterfaceDestination = z.infer<typeof interfaceDestinationSchema>;

/** What an interface profile revision says. */
export const interfaceProfileContentSchema = z.object({
  /** Off: messages from this identity are refused (AR) and results are not sent. */
  enabled: z.boolean().default(true),
  /** MSH-3 and MSH-4 of the messages the hospital sends: how an inbound message finds its client. */
  sendingApplication: hl7Identifier,
  sendingFacility: hl7Identifier,
  /** PID-3.4: the authority that issued the hospital's MRNs. */
  mrnAssigningAuthority: hl7Identifier,
  visitNumberSource: visitNumberSourceSchema.default("PV1-19"),
  /** MSH-5 and MSH-6 of what Vigil sends to the hospital. */
  receivingApplication: hl7Identifier,
  receivingFacility: hl7Identifier,
  /** Where results go; null: the hospital takes no results by interface. */
  destination: interfaceDestinationSchema.nullable().default(null),
  resultStyle: hl7ResultStyleSchema.default("ORU^R01"),
  hl7Version: hl7VersionSchema.default("2.5.1"),
  /** ORC-5 back to the hospital: in progress when monitoring starts, completed when signed. */
  orderStatusUpdates: z.boolean().default(false),
});
export type InterfaceProfileContent = z.infer<typeof interfaceProfileContentSchema>;

export const interfaceProfileRevisionSchema = interfaceProfileContentSchema.extend({
  id: idSchema,
  clientId: idSchema,
  revision: z.number().int().min(1),
  changeNote: z.string().nullable(),
  author: authorSchema,
  createdAt: isoDateTimeSchema,
});
export type InterfaceProfileRevision = z.infer<typeof interfaceProfileRevisionSchema>;

/** `GET clients/{id}/interface-profile`: the current revision (null before the first) and the history, newest first. */
export const interfaceProfileSchema = z.object({
  clientId: idSchema,
  current: interfaceProfileRevisionSchema.nullable(),
  history: z.array(interfaceProfileRevisionSchema),
});
export type InterfaceProfile = z.infer<typeof interfaceProfileSchema>;

/** `POST clients/{id}/interface-profile/revisions`: names the revision it was based on (null for the first). */
export const createInterfaceProfileRevisionSchema = interfaceProfileContentSchema.extend({
  baseRevision: z.number().int().min(1).nullable(),
  changeNote: z.string().trim().max(1000).nullable().optional(),
});
export type CreateInterfaceProfileRevision = z.input<typeof createInterfaceProfileRevisionSchema>;

/** "Send a test message": what the hospital's system answered, in plain words. */
export const interfaceTestResultSchema = z.object({
  ok: z.boolean(),
  /** AA, AE, AR, CA, CE, CR; null when no acknowledgement came back. */
  ackCode: z.string().nullable(),
  summary: z.string(),
  /** The acknowledgement as received (segments separated by line breaks), when one came back. */
  ack: z.string().nullable(),
  durationMs: z.number().int().min(0),
  messageId: idSchema.nullable(),
});
export type InterfaceTestResult = z.infer<typeof interfaceTestResultSchema>;

export const hl7Directions = ["inbound", "outbound"] as const;
export const hl7DirectionSchema = z.enum(hl7Directions);
export type Hl7Direction = z.infer<typeof hl7DirectionSchema>;

/**
 * Inbound: processed (answered AA/CA), error (AE), rejected (AR). Outbound: queued (a job will send it), sent (written,
 * no acknowledgement yet), acknowledged (AA/CA), failed (AE/AR, or every try failed).
 */
export const hl7MessageStatuses = [
  "processed",
  "error",
  "rejected",
  "queued",
  "sent",
  "acknowledged",
  "failed",
] as const;
export const hl7MessageStatusSchema = z.enum(hl7MessageStatuses);
export type Hl7MessageStatus = z.infer<typeof hl7MessageStatusSchema>;

export const hl7MessageSummarySchema = z.object({
  id: idSchema,
  direction: hl7DirectionSchema,
  clientId: idSchema.nullable(),
  clientName: z.string().nullable(),
  /** MSH-9 as `ORM^O01`. */
  messageType: z.string(),
  /** MSH-10. */
  controlId: z.string(),
  sendingApplication: z.string(),
  sendingFacility: z.string(),
  patientMrn: z.string().nullable(),
  /** The hospital's placer order number (ORC-2). */
  orderNumber: z.string().nullable(),
  caseId: idSchema.nullable(),
  caseNumber: z.string().nullable(),
  status: hl7MessageStatusSchema,
  ackCode: z.string().nullable(),
  error: z.string().nullable(),
  attempts: z.number().int().min(0),
  createdAt: isoDateTimeSchema,
  processedAt: isoDateTimeSchema.nullable(),
});
export type Hl7MessageSummary = z.infer<typeof hl7MessageSummarySchema>;

export const hl7SegmentSchema = z.object({
  name: z.string(),
  /** Field 1 is `fields[0]`; for MSH, field 1 is the field separator itself. */
  fields: z.array(z.string()),
});

export const hl7MessageDetailSchema = hl7MessageSummarySchema.extend({
  /** The message as received or sent, segments separated by line breaks (an embedded PDF shortened). */
  text: z.string(),
  segments: z.array(hl7SegmentSchema),
  ack: z.string().nullable(),
  reportVersionId: idSchema.nullable(),
  /** The message this one replays, when it is a replay. */
  replayOf: idSchema.nullable(),
});
export type Hl7MessageDetail = z.infer<typeof hl7MessageDetailSchema>;

const filterText = z.string().trim().min(1).max(200);

export const hl7MessageListQuerySchema = pageQuerySchema.extend({
  direction: hl7DirectionSchema.optional(),
  status: hl7MessageStatusSchema.optional(),
  clientId: idSchema.optional(),
  /** `ORM^O01`, or only the message code `ORM`. */
  messageType: filterText.optional(),
  /** A control id, an MRN or an order number, exactly. */
  search: filterText.optional(),
  from: isoDateTimeSchema.optional(),
  to: isoDateTimeSchema.optional(),
});
export type Hl7MessageListQuery = z.input<typeof hl7MessageListQuerySchema>;

/** What an order received by interface keeps on its case (the case screen shows it). */
export const caseOrderSchema = z.object({
  source: z.enum(["hl7", "fhir"]),
  placerOrderNumber: z.string(),
  /** Vigil's own order number sent back to the hospital (the case number). */
  fillerOrderNumber: z.string(),
  visitNumber: z.string().nullable(),
  orderingProvider: z.string().nullable(),
  mrnAssigningAuthority: z.string().nullable(),
  reason: z.string().nullable(),
  location: z.string().nullable(),
  /** An ADT discharge (A03) arrived while the case was open: the board asks whether to end monitoring. */
  dischargedAt: isoDateTimeSchema.nullable(),
  cancelledAt: isoDateTimeSchema.nullable(),
  cancelReason: z.string().nullable(),
  receivedAt: isoDateTimeSchema,
});
export type CaseOrder = z.infer<typeof caseOrderSchema>;
