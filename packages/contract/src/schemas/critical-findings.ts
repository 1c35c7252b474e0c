import { z } from "zod";
import { authorSchema, idSchema, isoDateTimeSchema, singleLineTextSchema } from "./common.js";

/**
 * Critical findings (PRODUCT.md §11): what a technologist or reviewer sees on the EEG that the client's protocol says
 * must be told to the hospital within `criticalNotification.withinMinutes`. The kinds use ACNS 2021 terms, as the
 * interpretations' seizure classification does.
 */
export const criticalFindingKinds = [
  "electrographic-seizure",
  "electrographic-status-epilepticus",
  "electroclinical-seizure",
  "other-urgent",
] as const;
export const criticalFindingKindSchema = z.enum(criticalFindingKinds);
export type CriticalFindingKind = z.infer<typeof criticalFindingKindSchema>;

/** The words a screen and a message use for each kind (no patient data in any of them). */
export const criticalFindingKindLabels: Record<CriticalFindingKind, string> = {
  "electrographic-seizure": "Electrographic seizure (ESz)",
  "electrographic-status-epilepticus": "Electrographic status epilepticus (ESE)",
  "electroclinical-seizure": "Electroclinical seizure (ECSz)",
  "other-urgent": "Other urgent finding",
};

/** `open` until someone acknowledges it (by link or by phone) or staff cancel it with a reason. */
export const criticalFindingStatuses = ["open", "acknowledged", "cancelled"] as const;
export const criticalFindingStatusSchema = z.enum(criticalFindingStatuses);
export type CriticalFindingStatus = z.infer<typeof criticalFindingStatusSchema>;

/**
 * How far before "now" the EEG onset may lie is not limited (a finding is often recognised on review), but it cannot
 * lie in the future beyond a little clock skew between the workstation and the server.
 */
export const onsetSkewMinutes = 5;

export const raiseCriticalFindingInputSchema = z.object({
  kind: criticalFindingKindSchema,
  /** When the finding began on the EEG (may be well before it was recognised). */
  onsetAt: isoDateTimeSchema.refine(
    (value) => Date.parse(value) <= Date.now() + onsetSkewMinutes * 60_000,
    "must not be in the future",
  ),
  description: z.string().trim().min(1, "is required").max(1000),
});
export type RaiseCriticalFindingInput = z.input<typeof raiseCriticalFindingInputSchema>;

/** Who a finding is sent to: a client contact flagged for critical findings, the case's reviewer, or a coordinator. */
export const findingRecipientKinds = ["contact", "reviewer", "coordinator"] as const;
export const findingRecipientKindSchema = z.enum(findingRecipientKinds);
export type FindingRecipientKind = z.infer<typeof findingRecipientKindSchema>;

export const findingDeliveryChannels = ["email", "sms"] as const;
/**
 * `not-needed`: deliberately not sent, because the finding was acknowledged or cancelled before its turn came; not a
 * failure of any transport. `may-have-been-sent`: an earlier try may have handed it to the relay or gateway (its
 * instance stopped, or the transport timed out, before the outcome was recorded) and the finding closed before a
 * later try could find out; `lastError` says why. Never recorded as not sent, since the recipient may have it.
 */
export const findingDeliveryStatuses = [
  "pending",
  "sending",
  "sent",
  "failed",
  "not-needed",
  "may-have-been-sent",
] as const;
export type FindingDeliveryStatus = (typeof findingDeliveryStatuses)[number];

/** What a message is for: the finding itself (the raise or an escalation), or the word that it was cancelled. */
export const findingDeliveryPurposes = ["notice", "cancellation"] as const;
export type FindingDeliveryPurpose = (typeof findingDeliveryPurposes)[number];

/**
 * One message to one recipient over one channel. `failed` is final (every retry spent); a failed attempt before that
 * stays `pending` with `lastError` and the time of the next attempt. Destinations are masked.
 */
export const findingDeliverySchema = z.object({
  id: idSchema,
  purpose: z.enum(findingDeliveryPurposes),
  channel: z.enum(findingDeliveryChannels),
  destination: z.string(),
  status: z.enum(findingDeliveryStatuses),
  attempts: z.number().int().min(0),
  lastError: z.string().nullable(),
  nextAttemptAt: isoDateTimeSchema.nullable(),
  sentAt: isoDateTimeSchema.nullable(),
});
export type FindingDelivery = z.infer<typeof findingDeliverySchema>;

export const findingRecipientSchema = z.object({
  id: idSchema,
  kind: findingRecipientKindSchema,
  name: z.string(),
  /** The client contact (kind `contact`), or the user (kind `reviewer`/`coordinator`). */
  contactId: idSchema.nullable(),
  username: z.string().nullable(),
  /** 0: told when the finding was raised; n: told at the n-th escalation. */
  level: z.number().int().min(0),
  notifiedAt: isoDateTimeSchema,
  linkExpiresAt: isoDateTimeSchema,
  /** When this recipient's acknowledgement link was used (it works once). */
  linkUsedAt: isoDateTimeSchema.nullable(),
  deliveries: z.array(findingDeliverySchema),
});
export type FindingRecipient = z.infer<typeof findingRecipientSchema>;

export const findingAcknowledgementVias = ["link", "phone"] as const;
export const findingAcknowledgementSchema = z.object({
  at: isoDateTimeSchema,
  /** The acknowledger's own name as they gave it (a hospital clinician has no Vigil account). */
  name: z.string(),
  via: z.enum(findingAcknowledgementVias),
  /** The recipient whose link was used; null for an acknowledgement taken by phone. */
  recipientId: idSchema.nullable(),
  readBackConfirmed: z.boolean(),
  note: z.string(),
  /** The staff member who recorded a phone acknowledgement; null for a link. */
  recordedBy: authorSchema.nullable(),
});
export type FindingAcknowledgement = z.infer<typeof findingAcknowledgementSchema>;

export const criticalFindingSchema = z.object({
  id: idSchema,
  caseId: idSchema,
  caseNumber: z.string(),
  clientId: idSchema,
  /** The event record the finding is on the case as (with its own revisions). */
  eventRecordId: idSchema,
  kind: criticalFindingKindSchema,
  onsetAt: isoDateTimeSchema,
  description: z.string(),
  raisedAt: isoDateTimeSchema,
  raisedBy: authorSchema,
  /** The protocol's `criticalNotification.withinMinutes` (the case's pinned revision, else the current one). */
  windowMinutes: z.number().int().positive(),
  /** raisedAt + window: by when someone must have acknowledged it. */
  dueAt: isoDateTimeSchema,
  status: criticalFindingStatusSchema,
  /** The first message that left Vigil (a delivery `sent`); null while none has. */
  firstNotifiedAt: isoDateTimeSchema.nullable(),
  acknowledgement: findingAcknowledgementSchema.nullable(),
  cancellation: z.object({ at: isoDateTimeSchema, reason: z.string(), by: authorSchema }).nullable(),
  /** How many escalations have gone out, and when the next is due while the finding is open. */
  escalations: z.number().int().min(0),
  nextEscalationAt: isoDateTimeSchema.nullable(),
  /** Acknowledged by `dueAt` (true), after it or still open past it (false); null while open and not yet due. */
  withinWindow: z.boolean().nullable(),
  recipients: z.array(findingRecipientSchema),
});
export type CriticalFinding = z.infer<typeof criticalFindingSchema>;

export const criticalFindingListSchema = z.object({ items: z.array(criticalFindingSchema) });
export type CriticalFindingList = z.infer<typeof criticalFindingListSchema>;

export const findingParamsSchema = z.object({ id: idSchema, findingId: idSchema });

/** Staff record an acknowledgement taken by phone (who, when, whether the finding was read back). */
export const recordFindingAcknowledgementInputSchema = z.object({
  name: singleLineTextSchema.min(1, "is required").max(200),
  acknowledgedAt: isoDateTimeSchema.refine(
    (value) => Date.parse(value) <= Date.now() + onsetSkewMinutes * 60_000,
    "must not be in the future",
  ),
  readBackConfirmed: z.boolean(),
  note: z.string().trim().max(1000).default(""),
});
export type RecordFindingAcknowledgementInput = z.input<typeof recordFindingAcknowledgementInputSchema>;

export const cancelCriticalFindingInputSchema = z.object({
  reason: z.string().trim().min(1, "is required").max(1000),
});
export type CancelCriticalFindingInput = z.input<typeof cancelCriticalFindingInputSchema>;

/**
 * The acknowledgement link's token travels in request bodies, never in a URL the server logs: the web page reads it
 * from the address's fragment (`#/acknowledge/<token>`), which browsers do not send.
 */
// The length is in the pattern as well as in min/max: the route fuzzer generates strings from the pattern, and with
// `+` it would almost never reach 20 characters.
export const findingLinkTokenSchema = z
  .string()
  .trim()
  .min(20, "is not a valid link")
  .max(200, "is not a valid link")
  .regex(/^[A-Za-z0-9._-]{20,200}$/, "is not a valid link");

export const findingLinkLookupInputSchema = z.object({ token: findingLinkTokenSchema });

export const acknowledgeFindingLinkInputSchema = z
  .object({
    token: findingLinkTokenSchema,
    name: singleLineTextSchema.min(1, "is required").max(200),
    /** What the acknowledger read back, or a note (optional). */
    readBack: z.string().trim().max(1000).default(""),
    /** The acknowledger confirms that `readBack` is the finding read back (kind, onset) rather than a note. */
    readBackConfirmed: z.boolean().default(false),
  })
  .superRefine((input, context) => {
    if (input.readBackConfirmed && input.readBack === "") {
      context.addIssue({ code: "custom", path: ["readBack"], message: "is required to confirm a read-back" });
    }
  });
export type AcknowledgeFindingLinkInput = z.input<typeof acknowledgeFindingLinkInputSchema>;

/**
 * What the acknowledgement page shows to the holder of a valid link: the minimum to act on (case number, client,
 * kind, times). The patient's name and MRN only where the operator enabled patient names in messages.
 */
export const findingLinkViewSchema = z.object({
  caseNumber: z.string(),
  clientName: z.string(),
  timeZone: z.string(),
  kind: criticalFindingKindSchema,
  onsetAt: isoDateTimeSchema,
  raisedAt: isoDateTimeSchema,
  description: z.string(),
  recipientName: z.string(),
  patient: z.object({ name: z.string(), mrn: z.string().nullable() }).nullable(),
  /** Where the patient lies (unit, room, bed): not identifying on its own, and what the physician needs to act. */
  location: z
    .object({ unit: z.string().nullable(), room: z.string().nullable(), bed: z.string().nullable() })
    .nullable(),
  /** By when the hospital is to acknowledge (raised + the protocol's window). */
  dueAt: isoDateTimeSchema,
  /** The EEG monitoring team's phone number to call (FINDING_TEAM_PHONE); null where none is set. */
  teamPhone: z.string().nullable(),
  status: criticalFindingStatusSchema,
  acknowledgedAt: isoDateTimeSchema.nullable(),
  acknowledgedBy: z.string().nullable(),
  /** What was read back or noted with the acknowledgement, and whether it was confirmed as a read-back. */
  readBack: z.string().nullable(),
  readBackConfirmed: z.boolean(),
  linkExpiresAt: isoDateTimeSchema,
});
export type FindingLinkView = z.infer<typeof findingLinkViewSchema>;

/**
 * Why a link cannot be used, in `details` of its 410: `used` (it works once), `expired`, `closed` (someone else
 * acknowledged the finding, or staff cancelled it), or `staff` (a link once sent to Vigil staff: acknowledging is the
 * hospital's step, PRODUCT.md §10). A link that is not ours at all is a 404.
 */
export const findingLinkRefusalSchema = z.object({
  reason: z.enum(["used", "expired", "closed", "staff"]),
  at: isoDateTimeSchema.nullable(),
});
export type FindingLinkRefusal = z.infer<typeof findingLinkRefusalSchema>;
