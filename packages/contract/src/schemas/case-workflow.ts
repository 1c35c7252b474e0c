import { z } from "zod";
import type { Permission } from "../access.js";

/** The stages a case moves through, in order; each is a queue page and the first segment of its cases' pages. */
export const caseStages = ["intake", "monitoring", "preview", "reviewed", "closed"] as const;
export type CaseStage = (typeof caseStages)[number];
export const caseStageSchema = z.enum(caseStages);
export const casePrioritySchema = z.enum(["routine", "stat"]);
export const studyTypeSchema = z.enum(["icu-ceeg", "ambulatory", "emu-video"]);
export type CasePriority = z.infer<typeof casePrioritySchema>;
export type StudyType = z.infer<typeof studyTypeSchema>;

// ---------------------------------------------------------------------------------------------------------------
// The workflow table (PRODUCT.md §3). One table, read by the server (which enforces it), by the screens (labels)
// and by the tests (which walk it for every group).
// ---------------------------------------------------------------------------------------------------------------

/**
 * Named preconditions. A refused move or action answers 409 with the failed ids in `error.details.failedChecks`.
 * - `technologist-assigned`: an active technologist assignment exists.
 * - `client-protocol-exists`: the client has a protocol revision to pin.
 * - `recording-ended`: the recording end time is set.
 * - `reason-given`: the request carries a non-empty reason.
 * - `final-interpretation-signed`: a final (signed) interpretation exists.
 * - `billing-check-passed`: billable hours computed and the client's rate known.
 * - `no-pending-transition`: no other move of the case is waiting for approval.
 * - `stat-acknowledged`: a STAT case has been taken by a reviewer (acknowledged); routine cases pass.
 * - `case-not-archived`, `case-open` (not closed), `before-review` (intake, monitoring or preview),
 *   `stat-priority`, `not-acknowledged`, `assignment-active`, `priority-changes`: the case actions' preconditions.
 */
export const caseCheckIds = [
  "technologist-assigned",
  "client-protocol-exists",
  "recording-ended",
  "reason-given",
  "final-interpretation-signed",
  "billing-check-passed",
  "no-pending-transition",
  "stat-acknowledged",
  "case-not-archived",
  "case-open",
  "before-review",
  "stat-priority",
  "not-acknowledged",
  "assignment-active",
  "priority-changes",
] as const;
export const caseCheckIdSchema = z.enum(caseCheckIds);
export type CaseCheckId = z.infer<typeof caseCheckIdSchema>;

export const failedCheckSchema = z.object({ check: caseCheckIdSchema, message: z.string() });
export type FailedCheck = z.infer<typeof failedCheckSchema>;

export const transitionRuleIds = [
  "start-monitoring",
  "end-monitoring",
  "return-to-monitoring",
  "sign-off",
  "addendum",
  "close",
  "reopen",
] as const;
export const transitionRuleIdSchema = z.enum(transitionRuleIds);
export type TransitionRuleId = z.infer<typeof transitionRuleIdSchema>;

export type TransitionRule = {
  id: TransitionRuleId;
  from: (typeof caseStages)[number];
  to: (typeof caseStages)[number];
  label: string;
  /** The permission a requester needs (groups grant it, see access.ts; admin has every permission). */
  permission: Permission;
  /** Checked in this order when the move is requested (and again when it is approved). */
  checks: readonly CaseCheckId[];
  reasonRequired: boolean;
  /** The move stays `pending` until someone with `cases:approve` approves it. */
  needsApproval: boolean;
};

/**
 * The transition table of PRODUCT.md §3. Who may request a move: the groups granted `permission`
 * (start/end monitoring: technologist, coordinator; preview → monitoring: reviewer, coordinator; sign-off and
 * addendum: reviewer; close: billing; reopen request: reviewer, billing, coordinator; admin: all).
 */
export const caseTransitionRules: readonly TransitionRule[] = [
  {
    id: "start-monitoring",
    from: "intake",
    to: "monitoring",
    label: "Start monitoring",
    permission: "cases:monitor",
    checks: ["technologist-assigned", "client-protocol-exists"],
    reasonRequired: false,
    needsApproval: false,
  },
  {
    id: "end-monitoring",
    from: "monitoring",
    to: "preview",
    label: "End monitoring",
    permission: "cases:monitor",
    checks: ["recording-ended"],
    reasonRequired: false,
    needsApproval: false,
  },
  {
    id: "return-to-monitoring",
    from: "preview",
    to: "monitoring",
    label: "Return to monitoring",
    permission: "cases:return",
    checks: ["reason-given"],
    reasonRequired: true,
    needsApproval: false,
  },
  {
    id: "sign-off",
    from: "preview",
    to: "reviewed",
    label: "Mark reviewed",
    permission: "cases:review",
    // A STAT case is on the acknowledgement clock until a reviewer takes it (PRODUCT.md §10): signing it off
    // untaken would stop the clock without anyone having answered for it.
    checks: ["final-interpretation-signed", "stat-acknowledged"],
    reasonRequired: false,
    needsApproval: false,
  },
  {
    id: "addendum",
    from: "reviewed",
    to: "preview",
    label: "Back to preview (addendum)",
    permission: "cases:review",
    checks: ["reason-given"],
    reasonRequired: true,
    needsApproval: false,
  },
  {
    id: "close",
    from: "reviewed",
    to: "closed",
    label: "Close case",
    permission: "cases:close",
    checks: ["billing-check-passed"],
    reasonRequired: false,
    needsApproval: false,
  },
  {
    id: "reopen",
    from: "closed",
    to: "reviewed",
    label: "Request re-opening",
    permission: "cases:reopen",
    checks: ["reason-given"],
    reasonRequired: true,
    needsApproval: true,
  },
];

export function findTransitionRule(from: string, to: string): TransitionRule | undefined {
  return caseTransitionRules.find((rule) => rule.from === from && rule.to === to);
}

export const caseActionNames = [
  "assign-technologist",
  "end-assignment",
  "assign-reviewer",
  "set-priority",
  "acknowledge",
] as const;
export const caseActionNameSchema = z.enum(caseActionNames);
export type CaseActionName = z.infer<typeof caseActionNameSchema>;

/** Who may take each case action (PRODUCT.md §1, §3). */
export const caseActionRules: Record<CaseActionName, { label: string; permission: Permission }> = {
  "assign-technologist": { label: "Assign technologist", permission: "cases:assign" },
  "end-assignment": { label: "End assignment", permission: "cases:assign" },
  "assign-reviewer": { label: "Assign reviewer", permission: "cases:assign" },
  "set-priority": { label: "Set priority", permission: "cases:assign" },
  acknowledge: { label: "Acknowledge (take this STAT case)", permission: "cases:acknowledge" },
};

export const transitionStatusSchema = z.enum(["pending", "completed", "rejected", "cancelled"]);
export type TransitionStatus = z.infer<typeof transitionStatusSchema>;
export const transitionActionNameSchema = z.enum(["approve", "reject", "cancel", "comment"]);
export type TransitionActionName = z.infer<typeof transitionActionNameSchema>;
