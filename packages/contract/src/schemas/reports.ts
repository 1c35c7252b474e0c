import { z } from "zod";
import { pageOf, pageQuerySchema } from "../envelope.js";
import { authorSchema, calendarDateSchema, idSchema, isoDateTimeSchema, orderedRange } from "./common.js";

/**
 * The signed EEG report as it leaves Vigil: every signed interpretation (a daily report or the
 * study summary) is version 1 of a report, and each addendum a further version that keeps the original text. Each
 * version's PDF is made and stored once, when it is signed, and never changes afterwards; the same report is
 * offered as a FHIR R4 DiagnosticReport, and is delivered to the contacts the client's protocol names by a one-time
 * download link.
 */

/** `signed`: the interpretation as signed (version 1); `addendum`: the same report with one more addendum. */
export const reportVersionKinds = ["signed", "addendum"] as const;
export const reportVersionKindSchema = z.enum(reportVersionKinds);
export type ReportVersionKind = z.infer<typeof reportVersionKindSchema>;

/** FHIR's DiagnosticReport.status of a version: the signed report is `final`, every addendum makes it `amended`. */
export const reportFhirStatuses = ["final", "amended"] as const;

/**
 * One e-mail with a download link to one recipient: `pending` until handed to the mail transport, then `sent`, or
 * `failed` with the transport's error (staff re-send, which makes a new delivery with a new link).
 */
export const reportDeliveryStatuses = ["pending", "sent", "failed"] as const;
export const reportDeliveryStatusSchema = z.enum(reportDeliveryStatuses);
export type ReportDeliveryStatus = z.infer<typeof reportDeliveryStatusSchema>;

/**
 * Why an unused link was withdrawn: by `staff` from the case's Reports list, because its contact was removed (deleted,
 * or dropped from the protocol's report recipients: `recipient-removed`), because the contact's address changed
 * (`address-changed`: the old mailbox may be someone else's now), or because a newer link of the same version went to
 * the same person (`superseded`).
 */
export const reportLinkVoidReasons = ["staff", "recipient-removed", "address-changed", "superseded"] as const;
export const reportLinkVoidReasonSchema = z.enum(reportLinkVoidReasons);
export type ReportLinkVoidReason = z.infer<typeof reportLinkVoidReasonSchema>;

export const reportDeliverySchema = z.object({
  id: idSchema,
  /** The client contact it went to (kept even if the contact is later removed from the protocol). */
  contactId: idSchema.nullable(),
  recipientName: z.string(),
  /** The e-mail address, masked (spec §9). */
  destination: z.string(),
  status: reportDeliveryStatusSchema,
  lastError: z.string().nullable(),
  sentAt: isoDateTimeSchema.nullable(),
  /** The link works once, until then. */
  linkExpiresAt: isoDateTimeSchema,
  /** When the recipient downloaded the PDF with this link (which spent it); null while unused. */
  openedAt: isoDateTimeSchema.nullable(),
  /** When the unused link was withdrawn (it downloads nothing since), and why; null while it stands. */
  voidedAt: isoDateTimeSchema.nullable(),
  voidReason: reportLinkVoidReasonSchema.nullable(),
  /** The staff member who re-sent it; null for the delivery made when the version was signed. */
  sentBy: authorSchema.nullable(),
  createdAt: isoDateTimeSchema,
});
export type ReportDelivery = z.infer<typeof reportDeliverySchema>;

export const reportAddendumSchema = z.object({
  text: z.string(),
  author: authorSchema,
  createdAt: isoDateTimeSchema,
});

/** One version of a report, with its stored PDF's fingerprint and every delivery of it. */
/**
 * Whether the hospital's chart took a version sent by HL7 (docs/design/HL7.md, "Outbound"): waiting (queued, or
 * retried while the peer is down), acknowledged (AA/CA, `at` when), failed (AE/AR with the peer's words, or every
 * try failed).
 */
export const reportEhrStatusSchema = z.object({
  status: z.enum(["waiting", "acknowledged", "failed"]),
  ackCode: z.string().nullable(),
  at: isoDateTimeSchema.nullable(),
  error: z.string().nullable(),
});
export type ReportEhrStatus = z.infer<typeof reportEhrStatusSchema>;

export const reportVersionSchema = z.object({
  id: idSchema,
  caseId: idSchema,
  /** The interpretation record the report is (its revisions are in the interpretations tab). */
  interpretationId: idSchema,
  /** 1 for the signed report; 2, 3, … for each addendum after it. */
  version: z.number().int().min(1),
  kind: reportVersionKindSchema,
  reportType: z.enum(["daily", "summary"]),
  /** "EEG report (24-hour), Nov 5, 2026 to Nov 6, 2026": the PDF's heading and the FHIR attachment's title. */
  title: z.string(),
  periodFrom: isoDateTimeSchema,
  periodTo: isoDateTimeSchema,
  signedBy: authorSchema,
  signedAt: isoDateTimeSchema,
  /** The addendum this version added (null for version 1); earlier addenda are in the PDF too. */
  addendum: reportAddendumSchema.nullable(),
  /** When this version was made (the signing, or the addendum). */
  issuedAt: isoDateTimeSchema,
  fhirStatus: z.enum(reportFhirStatuses),
  /** The stored PDF: SHA-256 (hex) of its bytes and their count. */
  pdf: z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/), bytes: z.number().int().positive() }),
  deliveries: z.array(reportDeliverySchema),
  /** The result message into the hospital's chart; null when none is sent (no interface destination). */
  ehr: reportEhrStatusSchema.nullable(),
});
export type ReportVersion = z.infer<typeof reportVersionSchema>;

/** A contact the client's current protocol names as a report recipient, and whether mail can reach them. */
export const reportRecipientSchema = z.object({
  contactId: idSchema,
  name: z.string(),
  /** Masked; null when the contact has no e-mail address (they cannot be sent a link). */
  email: z.string().nullable(),
});
export type ReportRecipient = z.infer<typeof reportRecipientSchema>;

/** `GET …/cases/{id}/reports`: every version of every report of the case, newest first. */
export const reportListSchema = z.object({
  caseId: idSchema,
  caseNumber: z.string(),
  items: z.array(reportVersionSchema),
  /** The recipients the client's current protocol names (re-sending may pick any contact of the client). */
  recipients: z.array(reportRecipientSchema),
  /** The caller may re-send a version (`reports:send`). */
  canSend: z.boolean(),
});
export type ReportList = z.infer<typeof reportListSchema>;

export const reportParamsSchema = z.object({ id: idSchema, reportId: idSchema });

export const reportDeliveryParamsSchema = z.object({ id: idSchema, reportId: idSchema, deliveryId: idSchema });

/** `POST …/reports/{reportId}/deliveries`: a new e-mail with a new link to each of these contacts of the client. */
export const resendReportInputSchema = z.object({
  contactIds: z
    .array(idSchema)
    .min(1, "must name at least one contact")
    .max(20)
    .refine((ids) => new Set(ids).size === ids.length, "must not name a contact twice"),
});
export type ResendReportInput = z.input<typeof resendReportInputSchema>;

/**
 * The download link's token travels in request bodies, never in a URL the server logs: the page reads it from the
 * address's fragment (`#/report/<token>`), which browsers do not send.
 */
// The length is in the pattern as well as in min/max: the route fuzzer generates strings from the pattern, and with
// `+` it would almost never reach 20 characters (it filters what is too short, and starved on such a pattern).
export const reportLinkTokenSchema = z
  .string()
  .trim()
  .min(20, "is not a valid link")
  .max(200, "is not a valid link")
  .regex(/^[A-Za-z0-9._-]{20,200}$/, "is not a valid link");

export const reportLinkInputSchema = z.object({ token: reportLinkTokenSchema });
export type ReportLinkInput = z.input<typeof reportLinkInputSchema>;

/**
 * What the download page shows before the download (which spends the link): who sent what to whom. No patient data:
 * that is in the PDF, which only the download gives.
 */
export const reportLinkViewSchema = z.object({
  companyName: z.string(),
  clientName: z.string(),
  caseNumber: z.string(),
  title: z.string(),
  version: z.number().int().min(1),
  kind: reportVersionKindSchema,
  signedAt: isoDateTimeSchema,
  /** The signer's name as the report names them (their username when no name was recorded). */
  signedBy: z.string(),
  recipientName: z.string(),
  linkExpiresAt: isoDateTimeSchema,
  /** The client's IANA zone: the page words every time in it, zone named, as the e-mail and the case do. */
  timeZone: z.string(),
});
export type ReportLinkView = z.infer<typeof reportLinkViewSchema>;

/**
 * Why a link cannot be used, in `details` of its 410: `used` (it works once), `expired`, or `voided` (staff withdrew
 * it, its recipient was removed or their address changed, or a newer link was sent). `timeZone` is the client's, for
 * saying `at` as the e-mail says times. A forged link is a 404.
 */
export const reportLinkRefusalSchema = z.object({
  reason: z.enum(["used", "expired", "voided"]),
  at: isoDateTimeSchema.nullable(),
  timeZone: z.string().optional(),
});
export type ReportLinkRefusal = z.infer<typeof reportLinkRefusalSchema>;

/**
 * One label/value line of the report ("MRN: MRN-0042"), a paragraph of prose (line breaks kept as written), or a
 * list of separate statements (the ACNS findings, the critical findings).
 */
export const reportDocumentBlockSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("fields"), rows: z.array(z.object({ label: z.string(), value: z.string() })) }),
  z.object({ kind: z.literal("paragraph"), text: z.string() }),
  z.object({ kind: z.literal("list"), items: z.array(z.string()) }),
]);
export type ReportDocumentBlock = z.infer<typeof reportDocumentBlockSchema>;

export const reportDocumentSectionIds = [
  "patient-and-study",
  "clinical-history",
  "technical-description",
  "background",
  "findings",
  "seizures",
  "critical-findings",
  "impression",
  "clinical-correlation",
] as const;

/**
 * `GET …/reports/{reportId}/document`: the version's content in reading order, made from the inputs stored when it
 * was signed, exactly what its PDF says (the PDF is rendered from this same description), for the printable page.
 * Every instant is already written in the client's time zone.
 */
export const reportDocumentSchema = z.object({
  id: idSchema,
  caseId: idSchema,
  version: z.number().int().min(1),
  kind: reportVersionKindSchema,
  company: z.object({ name: z.string(), details: z.string() }),
  /** "Prepared for Mercy General Hospital", then the client's address and phone lines. */
  preparedFor: z.string(),
  clientLines: z.array(z.string()),
  title: z.string(),
  /** "Final report (version 1)", or for an addendum version the "ADDENDUM (version n): …" notice. */
  status: z.string(),
  /** The line every printed page carries: the patient's name, MRN and case number (and the addendum's version). */
  runningHeader: z.string(),
  patient: z.object({ name: z.string(), mrn: z.string() }),
  caseNumber: z.string(),
  sections: z.array(
    z.object({
      id: z.enum(reportDocumentSectionIds),
      heading: z.string(),
      blocks: z.array(reportDocumentBlockSchema),
    }),
  ),
  /** "Electronically signed by … on …": the original signing, also on an addendum version. */
  signature: z.string(),
  /**
   * Under the signature: the signer's name with credentials, NPI and board certifications, as they stood at the
   * signing (absent for reports signed before users held them).
   */
  signatureDetails: z.array(z.string()).optional(),
  /** Every addendum up to this version, oldest first, after the signature. */
  addenda: z.array(z.object({ heading: z.string(), text: z.string() })),
});
export type ReportDocument = z.infer<typeof reportDocumentSchema>;

/** The PDF's bytes (`application/pdf`), sent as they were stored when the version was signed. */
export const reportPdfSchema = z.string().meta({ format: "binary", description: "The PDF document" });

const fhirCodingSchema = z.object({ system: z.string(), code: z.string(), display: z.string().optional() });
const fhirCodeableConceptSchema = z.object({ coding: z.array(fhirCodingSchema), text: z.string().optional() });
/** A reference by id, by identifier (the patient's MRN, the visit number) or both; loose: identifiers carry types. */
const fhirReferenceSchema = z.looseObject({ reference: z.string().optional(), display: z.string().optional() });

/**
 * The report as a FHIR R4 US Core DiagnosticReport (`application/fhir+json`, no envelope), exactly as the
 * hospitals' FHIR API serves it (docs/design/FHIR.md) with the PDF also inline. One resource per report: an
 * addendum keeps the id and identifier, its status `amended` and `meta.versionId` the version. Only the elements
 * Vigil fills are described here; the server's tests validate every resource with three independent validators.
 */
export const fhirDiagnosticReportSchema = z.looseObject({
  resourceType: z.literal("DiagnosticReport"),
  id: z.string(),
  meta: z.looseObject({ versionId: z.string(), lastUpdated: z.string(), profile: z.array(z.string()) }),
  text: z.object({ status: z.literal("generated"), div: z.string() }),
  identifier: z.array(z.looseObject({ system: z.string(), value: z.string() })),
  basedOn: z.array(fhirReferenceSchema),
  status: z.enum(reportFhirStatuses),
  category: z.array(fhirCodeableConceptSchema),
  code: fhirCodeableConceptSchema,
  subject: fhirReferenceSchema,
  encounter: fhirReferenceSchema.optional(),
  effectivePeriod: z.object({ start: z.string(), end: z.string() }),
  issued: z.string(),
  performer: z.array(fhirReferenceSchema),
  resultsInterpreter: z.array(fhirReferenceSchema),
  conclusion: z.string().optional(),
  conclusionCode: z.array(fhirCodeableConceptSchema).optional(),
  presentedForm: z.array(
    z.object({
      contentType: z.literal("application/pdf"),
      /** `Binary/<version id>` on the hospitals' FHIR API. */
      url: z.string(),
      data: z.string(),
      hash: z.string(),
      size: z.number().int(),
      title: z.string(),
      creation: z.string(),
    }),
  ),
});
export type FhirDiagnosticReport = z.infer<typeof fhirDiagnosticReportSchema>;

/**
 * The accounting of disclosures (HIPAA §164.528): every time a patient's report left Vigil or was taken out of it —
 * e-mailed to a client's contact (`report-delivered`: the link, not the PDF), downloaded with that link
 * (`report-downloaded`), or fetched by staff as PDF, FHIR or the printable page (`pdf-exported`, `fhir-exported`,
 * `page-exported`: the page holds the same content and prints it). A link withdrawn before it was used
 * (`link-voided`) is listed too: the accounting shows that what was sent can no longer be taken. An invoice whose
 * lines name patients (the client's billing profile asks for it) e-mailed to the client's billing contacts is one
 * disclosure per patient it names (`invoice-sent`).
 */
export const disclosureKinds = [
  "report-delivered",
  "report-downloaded",
  "link-voided",
  "pdf-exported",
  "fhir-exported",
  "page-exported",
  "fhir-api-read",
  "fhir-pushed",
  "invoice-sent",
] as const;
export const disclosureKindSchema = z.enum(disclosureKinds);
export type DisclosureKind = z.infer<typeof disclosureKindSchema>;

export const disclosureKindLabels: Record<DisclosureKind, string> = {
  "report-delivered": "Report link e-mailed",
  "report-downloaded": "Report downloaded with a link",
  "link-voided": "Report link withdrawn before use",
  "pdf-exported": "PDF fetched by staff",
  "fhir-exported": "FHIR DiagnosticReport fetched by staff",
  "page-exported": "Printable page opened by staff",
  "fhir-api-read": "Read by the hospital's system (FHIR API)",
  "fhir-pushed": "Sent to the hospital's FHIR server",
  "invoice-sent": "Named on an invoice e-mailed to the client",
};

export const disclosureSchema = z.object({
  id: idSchema,
  at: isoDateTimeSchema,
  kind: disclosureKindSchema,
  /** The patient as the disclosed report named them. */
  patient: z.object({ mrn: z.string(), name: z.string() }),
  caseId: idSchema,
  caseNumber: z.string(),
  clientId: idSchema,
  clientName: z.string(),
  reportId: idSchema.nullable(),
  reportTitle: z.string().nullable(),
  reportVersion: z.number().int().min(1).nullable(),
  /** Who received it: the contact's name and whole e-mail address (only `audit:read` reads this), or the staff member. */
  recipient: z.string(),
  /** The staff member who did it (a re-send or an export); null for what Vigil did itself or a link's holder. */
  by: authorSchema.nullable(),
  ip: z.string().nullable(),
});
export type Disclosure = z.infer<typeof disclosureSchema>;

const disclosureFilterShape = {
  /** The patient's MRN, exactly as the client records it. */
  mrn: z.string().trim().min(1, "is required").max(100),
  /** One client's patient with that MRN (MRNs are the client's own numbers). */
  clientId: idSchema.optional(),
  /** First and last calendar day (UTC), both included. */
  from: calendarDateSchema.optional(),
  to: calendarDateSchema.optional(),
};

/** `GET /api/audit/disclosures`: one patient's disclosures, newest first, paged. */
export const disclosureQuerySchema = orderedRange(pageQuerySchema.extend(disclosureFilterShape), {
  from: "from",
  to: "to",
});
export type DisclosureQuery = z.input<typeof disclosureQuerySchema>;

/** `GET /api/audit/disclosures/export`: the same filter, every row, as CSV. */
export const disclosureExportQuerySchema = orderedRange(z.object(disclosureFilterShape), { from: "from", to: "to" });
export type DisclosureExportQuery = z.input<typeof disclosureExportQuerySchema>;

export const disclosurePageSchema = pageOf(disclosureSchema);
export type DisclosurePage = z.infer<typeof disclosurePageSchema>;

/** The CSV export (`text/csv`, UTF-8, a header row): the columns of `disclosureCsvColumns`, newest first. */
export const disclosureCsvSchema = z.string().meta({ description: "CSV with a header row" });
export const disclosureCsvColumns = [
  "at",
  "kind",
  "patient_mrn",
  "patient_name",
  "client",
  "case_number",
  "report",
  "report_version",
  "recipient",
  "by",
  "ip",
] as const;
