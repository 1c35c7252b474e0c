import { z } from "zod";
import type { Permission } from "../access.js";
import { pageOf, pageQuerySchema } from "../envelope.js";
import { caseTabs } from "../pages.js";
import {
  type CaseActionName,
  caseActionNameSchema,
  caseActionNames,
  casePrioritySchema,
  caseStageSchema,
  failedCheckSchema,
  studyTypeSchema,
  type TransitionRuleId,
  transitionActionNameSchema,
  transitionRuleIdSchema,
  transitionStatusSchema,
} from "./case-workflow.js";
import {
  authorSchema,
  idSchema,
  isoDateTimeSchema,
  orderedRange,
  pastCalendarDateSchema,
  singleLineTextSchema,
  sortOrderSchema,
} from "./common.js";
import { caseOrderSchema } from "./interfaces.js";

/** A case as lists show it; the full case arrives with the case workflow. */
export const caseSummarySchema = z.object({
  id: idSchema,
  caseNumber: z.string(),
  clientId: idSchema,
  studyType: studyTypeSchema,
  hasVideo: z.boolean(),
  priority: casePrioritySchema,
  stage: caseStageSchema,
  createdAt: isoDateTimeSchema,
  updatedAt: isoDateTimeSchema,
});
export type CaseSummary = z.infer<typeof caseSummarySchema>;

export const clientCasesQuerySchema = pageQuerySchema.extend({
  stage: caseStageSchema.optional(),
});

// ---------------------------------------------------------------------------------------------------------------
// Wire shapes
// ---------------------------------------------------------------------------------------------------------------

const optionalText = (max: number) => z.string().trim().max(max).nullable().optional();
/** A name, an MRN, a room: one line (see `singleLineTextSchema`). */
const optionalLine = (max: number) => singleLineTextSchema.max(max).nullable().optional();

export const sexSchema = z.enum(["female", "male", "other", "unknown"]);

/** Patient details (PRODUCT.md §4): the creation form captures revision 1. */
export const patientDetailsInputSchema = z.object({
  mrn: singleLineTextSchema.min(1, "is required").max(64),
  firstName: singleLineTextSchema.min(1, "is required").max(100),
  lastName: singleLineTextSchema.min(1, "is required").max(100),
  dateOfBirth: pastCalendarDateSchema.nullable().optional(),
  sex: sexSchema.default("unknown"),
  location: z
    .object({ unit: optionalLine(100), room: optionalLine(50), bed: optionalLine(50) })
    .default({ unit: null, room: null, bed: null }),
  referringPhysician: optionalLine(200),
  indication: optionalText(2000),
  medications: optionalText(5000),
  notes: optionalText(5000),
});
export type PatientDetailsInput = z.input<typeof patientDetailsInputSchema>;

export const patientDetailsSchema = z.object({
  id: idSchema,
  caseId: idSchema,
  revision: z.number().int().min(1),
  mrn: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  dateOfBirth: z.string().nullable(),
  sex: sexSchema,
  location: z.object({ unit: z.string().nullable(), room: z.string().nullable(), bed: z.string().nullable() }),
  referringPhysician: z.string().nullable(),
  indication: z.string().nullable(),
  medications: z.string().nullable(),
  notes: z.string().nullable(),
  author: authorSchema,
  createdAt: isoDateTimeSchema,
});
export type PatientDetails = z.infer<typeof patientDetailsSchema>;

/** A staff member as a case shows them (technologist, reviewer, requester, decider). */
export const caseUserSchema = z.object({
  sub: z.string().nullable(),
  username: z.string(),
  name: z.string().nullable(),
});
export type CaseUser = z.infer<typeof caseUserSchema>;

export const caseAssignmentSchema = z.object({
  id: idSchema,
  technologist: caseUserSchema,
  startedAt: isoDateTimeSchema,
  /** null while the assignment is active. */
  endedAt: isoDateTimeSchema.nullable(),
  assignedBy: caseUserSchema,
});
export type CaseAssignment = z.infer<typeof caseAssignmentSchema>;

export const caseTransitionSchema = z.object({
  id: idSchema,
  caseId: idSchema,
  ruleId: transitionRuleIdSchema,
  from: caseStageSchema,
  to: caseStageSchema,
  status: transitionStatusSchema,
  reason: z.string().nullable(),
  requestedBy: caseUserSchema,
  requestedAt: isoDateTimeSchema,
  decidedBy: caseUserSchema.nullable(),
  decidedAt: isoDateTimeSchema.nullable(),
  /** What the caller may do with this transition now (pending ones only; `comment` on any). */
  allowedActions: z.array(transitionActionNameSchema),
});
export type CaseTransition = z.infer<typeof caseTransitionSchema>;

/** A move the caller's permissions allow from the case's current stage; `allowed` when every check passes. */
export const allowedTransitionSchema = z.object({
  ruleId: transitionRuleIdSchema,
  to: caseStageSchema,
  label: z.string(),
  reasonRequired: z.boolean(),
  needsApproval: z.boolean(),
  allowed: z.boolean(),
  /** Checks that fail now (`reason-given` is judged on the request, so it is never listed here). */
  failedChecks: z.array(failedCheckSchema),
});
export type AllowedTransition = z.infer<typeof allowedTransitionSchema>;

/** A case action the caller's permissions allow; `allowed` when its preconditions hold in the case's state. */
export const allowedActionSchema = z.object({
  action: caseActionNameSchema,
  label: z.string(),
  allowed: z.boolean(),
  failedChecks: z.array(failedCheckSchema),
});
export type AllowedAction = z.infer<typeof allowedActionSchema>;

/** The header of a case screen: the latest patient-details revision's identifying fields. */
export const casePatientSchema = z.object({
  mrn: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  dateOfBirth: z.string().nullable(),
  sex: sexSchema,
  location: z.object({ unit: z.string().nullable(), room: z.string().nullable(), bed: z.string().nullable() }),
  revision: z.number().int().min(1),
});
export type CasePatient = z.infer<typeof casePatientSchema>;

export const caseClientSchema = z.object({ id: idSchema, name: z.string(), code: z.string(), timezone: z.string() });

/** `GET cases/{id}` and every workflow answer: the case, its header data, and what the caller may do now. */
export const caseSchema = caseSummarySchema.extend({
  client: caseClientSchema,
  patient: casePatientSchema.nullable(),
  /** Active technologist assignments, oldest first. */
  technologists: z.array(caseAssignmentSchema),
  reviewer: caseUserSchema.nullable(),
  acknowledgedBy: caseUserSchema.nullable(),
  acknowledgedAt: isoDateTimeSchema.nullable(),
  /** The client protocol revision pinned when monitoring started (null before). */
  protocolRevisionId: idSchema.nullable(),
  protocolRevision: z.number().int().min(1).nullable(),
  recordingStartedAt: isoDateTimeSchema.nullable(),
  recordingEndedAt: isoDateTimeSchema.nullable(),
  archivedAt: isoDateTimeSchema.nullable(),
  createdBy: caseUserSchema,
  /** The hospital's order the case was opened from (HL7 ORM/OML), with its visit; null for a case typed in. */
  order: caseOrderSchema.nullable(),
  /** Changes with every write; also the ETag (`versionEtag`). */
  version: z.number().int().min(1),
  pendingTransition: caseTransitionSchema.nullable(),
  allowedActions: z.array(allowedActionSchema),
  allowedTransitions: z.array(allowedTransitionSchema),
  /** Whether the caller may edit the case's fields (PATCH) and archive it (DELETE) now, by the server's rules. */
  allowedChanges: z.object({ edit: z.boolean(), archive: z.boolean() }),
  /** The case page's tabs for this case now, in order (some open only from a stage on). */
  tabs: z.array(z.enum(caseTabs)),
});
export type Case = z.infer<typeof caseSchema>;

/** A row of a stage queue. */
export const caseListItemSchema = caseSummarySchema.extend({
  clientName: z.string(),
  clientCode: z.string(),
  /** The client's IANA zone: lists show times in it, with the zone named. */
  clientTimezone: z.string(),
  patientName: z.string().nullable(),
  mrn: z.string().nullable(),
  technologists: z.array(caseUserSchema),
  reviewer: caseUserSchema.nullable(),
  acknowledgedAt: isoDateTimeSchema.nullable(),
  recordingStartedAt: isoDateTimeSchema.nullable(),
  recordingEndedAt: isoDateTimeSchema.nullable(),
  hasPendingTransition: z.boolean(),
  version: z.number().int().min(1),
});
export type CaseListItem = z.infer<typeof caseListItemSchema>;
/**
 * A stage queue's page. `total` is exact up to 10,000 cases; beyond, it is the database's estimate and
 * `totalIsEstimate` is true (screens say "about N"), so a page never waits for every case to be counted.
 */
export const casePageSchema = pageOf(caseListItemSchema).extend({ totalIsEstimate: z.boolean() });
export type CasePage = z.infer<typeof casePageSchema>;

/**
 * Filters of every stage queue. Default order: STAT first, then oldest first (`sort=priority`).
 * `search`: every word typed must be found, in any order, case- and accent-insensitively: at the start of any word
 * of the case number, the MRN or the patient's names ("Brien" and "Łukasz" find O'Brien-Łukasz, "zoe" finds Zoë),
 * or, three or more digits, anywhere in them ("000008" finds CM-2026-000008).
 */
export const caseQueueQuerySchema = orderedRange(
  pageQuerySchema.extend({
    clientId: idSchema.optional(),
    priority: casePrioritySchema.optional(),
    technologistId: idSchema.optional(),
    reviewerId: idSchema.optional(),
    /** Opened at or after (inclusive). */
    createdFrom: isoDateTimeSchema.optional(),
    /** Opened at or before (inclusive). */
    createdTo: isoDateTimeSchema.optional(),
    search: z.string().trim().max(100).optional(),
    sort: z.enum(["priority", "createdAt", "updatedAt", "caseNumber"]).default("priority"),
    order: sortOrderSchema.default("asc"),
  }),
  { from: "createdFrom", to: "createdTo" },
);
export type CaseQueueQuery = z.input<typeof caseQueueQuerySchema>;

/** `POST cases`: the client must be active and not archived; the case starts in intake. */
export const createCaseRequestSchema = z.object({
  clientId: idSchema,
  studyType: studyTypeSchema,
  hasVideo: z.boolean().default(false),
  priority: casePrioritySchema.default("routine"),
  patient: patientDetailsInputSchema,
});
export type CreateCaseRequest = z.input<typeof createCaseRequestSchema>;

/** `PATCH cases/{id}` (If-Match): only the fields sent change; recording times may be cleared with null. */
export const updateCaseRequestSchema = z
  .object({
    studyType: studyTypeSchema.optional(),
    hasVideo: z.boolean().optional(),
    priority: casePrioritySchema.optional(),
    recordingStartedAt: isoDateTimeSchema.nullable().optional(),
    recordingEndedAt: isoDateTimeSchema.nullable().optional(),
  })
  .refine(
    (body) =>
      !body.recordingStartedAt ||
      !body.recordingEndedAt ||
      Date.parse(body.recordingEndedAt) >= Date.parse(body.recordingStartedAt),
    { message: "must not be before the recording start", path: ["recordingEndedAt"] },
  );
export type UpdateCaseRequest = z.input<typeof updateCaseRequestSchema>;
export type CaseField = keyof UpdateCaseRequest;

export type CaseFieldRule = {
  label: string;
  /** Needed to change the field (sending its current value is no change); the route itself needs `cases:update`. */
  permission: Permission;
  /** Where else the same change is made: its permission is this field's, so one rule holds whichever route is used. */
  sameAs: { action: CaseActionName } | { transition: TransitionRuleId } | { route: "createCase" };
};

/**
 * Who may change each field of a case with `PATCH cases/{id}` (PRODUCT.md §1, §3), read by the server (which refuses
 * a change with 403 naming the fields) and by the screens (which offer only these). Technologists record when the
 * recording started and ended, which their moves need; the priority is the coordinators' `set-priority`; study type
 * and video are intake details, set by whoever creates cases.
 */
export const caseFieldRules: Record<CaseField, CaseFieldRule> = {
  studyType: { label: "study type", permission: "cases:create", sameAs: { route: "createCase" } },
  hasVideo: { label: "video", permission: "cases:create", sameAs: { route: "createCase" } },
  priority: { label: "priority", permission: "cases:assign", sameAs: { action: "set-priority" } },
  recordingStartedAt: {
    label: "recording start",
    permission: "cases:monitor",
    sameAs: { transition: "start-monitoring" },
  },
  recordingEndedAt: { label: "recording end", permission: "cases:monitor", sameAs: { transition: "end-monitoring" } },
};
export const caseFields = Object.keys(caseFieldRules) as CaseField[];

/** Whether `permissions` (a user's, from their groups) allow changing `field` of a case. */
export function mayChangeCaseField(field: CaseField, permissions: ReadonlySet<Permission>): boolean {
  return permissions.has(caseFieldRules[field].permission);
}

/**
 * `POST cases/{id}/actions`. `version` (optional): the case version the caller saw; a stale one is a 409, so a
 * decision taken on an outdated screen never lands.
 */
const versionField = { version: z.number().int().min(1).optional() };
export const caseActionRequestSchema = z.discriminatedUnion("action", [
  z.object({ action: z.literal("assign-technologist"), technologistId: idSchema, ...versionField }),
  z.object({ action: z.literal("end-assignment"), assignmentId: idSchema, ...versionField }),
  z.object({ action: z.literal("assign-reviewer"), reviewerId: idSchema, ...versionField }),
  z.object({ action: z.literal("set-priority"), priority: casePrioritySchema, ...versionField }),
  z.object({ action: z.literal("acknowledge"), ...versionField }),
]);
export type CaseActionRequest = z.input<typeof caseActionRequestSchema>;

/** `POST cases/{id}/transitions`: move the case to `to`; see `caseTransitionRules`. */
export const transitionRequestSchema = z.object({
  to: caseStageSchema,
  reason: z.string().trim().max(2000).nullable().optional(),
  version: z.number().int().min(1).optional(),
});
export type TransitionRequest = z.input<typeof transitionRequestSchema>;

/** `POST cases/{id}/transitions/{transitionId}/actions`. */
export const transitionActionRequestSchema = z.object({
  action: transitionActionNameSchema,
  comment: z.string().trim().max(2000).nullable().optional(),
});
export type TransitionActionRequest = z.input<typeof transitionActionRequestSchema>;

export const transitionResultSchema = z.object({ transition: caseTransitionSchema, case: caseSchema });
export type TransitionResult = z.infer<typeof transitionResultSchema>;

export const caseTransitionParamsSchema = z.object({ id: idSchema, transitionId: idSchema });

/**
 * What happened to a case, in order: case actions (incl. create/update/archive), moves, and their actions. A critical
 * finding's steps are actions too (PRODUCT.md §11), read from the finding itself: raised, each escalation (actor
 * Vigil), acknowledged (by link: the name the acknowledger gave; by phone: who recorded it) and cancelled.
 */
export const criticalFindingTimelineActions = [
  "raise-critical-finding",
  "escalate-critical-finding",
  "acknowledge-critical-finding",
  "cancel-critical-finding",
] as const;
export const caseTimelineActionSchema = z.enum([
  ...caseActionNames,
  "create",
  "update",
  "archive",
  ...criticalFindingTimelineActions,
  // Written by the hospital interface (docs/design/HL7.md): demographics that differ from the case's, kept for the
  // coordinator to decide, and an ADT discharge (A03) of the patient.
  "interface-demographics-conflict",
  "patient-discharged",
]);
export const timelineEntrySchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("action"),
    id: idSchema,
    at: isoDateTimeSchema,
    actor: caseUserSchema,
    action: caseTimelineActionSchema,
    details: z.record(z.string(), z.unknown()),
  }),
  z.object({
    kind: z.literal("transition"),
    id: idSchema,
    at: isoDateTimeSchema,
    actor: caseUserSchema,
    transition: caseTransitionSchema.omit({ allowedActions: true }),
  }),
  z.object({
    kind: z.literal("transition-action"),
    id: idSchema,
    at: isoDateTimeSchema,
    actor: caseUserSchema,
    transitionId: idSchema,
    action: transitionActionNameSchema,
    comment: z.string().nullable(),
  }),
]);
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;
export const caseTimelineSchema = z.object({ caseId: idSchema, items: z.array(timelineEntrySchema) });
export type CaseTimeline = z.infer<typeof caseTimelineSchema>;

/** `GET cases/assignments`: technologists with active assignments, each with their load and cases. */
export const assignmentsQuerySchema = pageQuerySchema.extend({
  technologistId: idSchema.optional(),
  clientId: idSchema.optional(),
});
export const technologistLoadSchema = z.object({
  technologist: caseUserSchema,
  /** Active assignments on open cases, and how many of them are monitoring now / STAT. */
  load: z.object({ active: z.number().int(), monitoring: z.number().int(), stat: z.number().int() }),
  assignments: z.array(
    z.object({
      assignmentId: idSchema,
      caseId: idSchema,
      caseNumber: z.string(),
      stage: caseStageSchema,
      priority: casePrioritySchema,
      clientName: z.string(),
      patientName: z.string().nullable(),
      startedAt: isoDateTimeSchema,
    }),
  ),
});
export type TechnologistLoad = z.infer<typeof technologistLoadSchema>;
export const assignmentsPageSchema = pageOf(technologistLoadSchema);
export type AssignmentsPage = z.infer<typeof assignmentsPageSchema>;
