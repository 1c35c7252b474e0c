import {
  type AllowedAction,
  type AllowedTransition,
  type CaseActionName,
  type CaseCheckId,
  type CaseField,
  caseActionNames,
  caseActionRules,
  caseFieldRules,
  caseFields,
  caseTransitionRules,
  type FailedCheck,
  mayChangeCaseField,
  type Permission,
  type TransitionRule,
  type UpdateCaseRequest,
} from "@vigil/contract";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import { getCurrentProtocolRevision } from "../clients/protocol-service.js";
import type { CaseDependencies } from "./case-dependencies.js";
import type { AssignmentRow, CaseRow, TransitionRow } from "./cases-repository.js";

/** Who asks: what the workflow needs of the principal. */
export type WorkflowUser = { sub: string; username: string; permissions: ReadonlySet<Permission> };

/** The state a check looks at; `reason` only when judging a request (never for the "allowed now" lists). */
export type CheckContext = {
  db: Db;
  caseRow: CaseRow;
  activeAssignments: readonly AssignmentRow[];
  pendingTransition: TransitionRow | undefined;
  reason?: string | null | undefined;
  /** The checks other modules answer (records, billing), handed in by app.ts. */
  dependencies: CaseDependencies;
};

/** A named precondition: undefined when it passes, else the reason in words. */
export type CaseCheck = (context: CheckContext) => Promise<string | undefined> | string | undefined;

/**
 * The named checks of the transition table and the case actions. `final-interpretation-signed` and
 * `billing-check-passed` are answered by the records and billing modules through the context's dependencies, in the
 * caller's transaction, under the case lock.
 */
export const caseChecks: Record<CaseCheckId, CaseCheck> = {
  "technologist-assigned": ({ activeAssignments }) =>
    activeAssignments.length > 0 ? undefined : "Assign a technologist before monitoring starts.",
  "client-protocol-exists": async ({ db, caseRow }) =>
    (await getCurrentProtocolRevision(db, caseRow.clientId))
      ? undefined
      : "The client has no protocol yet; add its first protocol revision so monitoring can follow (and pin) it.",
  "recording-ended": ({ caseRow }) =>
    caseRow.recordingEndedAt ? undefined : "Set the recording end time before ending monitoring.",
  "reason-given": ({ reason }) => (reason?.trim() ? undefined : "Give a reason for this move."),
  "final-interpretation-signed": async ({ db, caseRow, dependencies }) =>
    (await dependencies.hasSignedInterpretation(db, caseRow.id))
      ? undefined
      : "No final (signed) interpretation exists for this case yet; a reviewer must sign one before it is marked reviewed.",
  "billing-check-passed": async ({ db, caseRow, dependencies }) => {
    const failure = await dependencies.billingCheckFailure(db, caseRow, new Date());
    return failure ? `The billing check has not passed: ${failure}` : undefined;
  },
  "no-pending-transition": ({ pendingTransition }) =>
    pendingTransition
      ? `A move from ${pendingTransition.fromStage} to ${pendingTransition.toStage} is waiting for approval; approve, reject or cancel it first.`
      : undefined,
  "case-not-archived": ({ caseRow }) => (caseRow.archivedAt ? "This case is archived." : undefined),
  "case-open": ({ caseRow }) =>
    caseRow.stage === "closed" ? "This case is closed; it must be re-opened before it changes." : undefined,
  // Taking a STAT case answers its acknowledgement clock, which runs only until review (PRODUCT.md §10).
  "before-review": ({ caseRow }) =>
    caseRow.stage === "intake" || caseRow.stage === "monitoring" || caseRow.stage === "preview"
      ? undefined
      : `A STAT case is taken before it is reviewed; this case is ${caseRow.stage}.`,
  "stat-acknowledged": ({ caseRow }) =>
    caseRow.priority !== "stat" || caseRow.acknowledgedAt
      ? undefined
      : "Take this STAT case first (Acknowledge): STAT cases are reviewed only once a reviewer has taken them.",
  "stat-priority": ({ caseRow }) =>
    caseRow.priority === "stat" ? undefined : "Only STAT cases are acknowledged; this case is routine.",
  "not-acknowledged": ({ caseRow }) =>
    caseRow.acknowledgedAt
      ? `This case was already acknowledged by ${caseRow.acknowledgedByName ?? caseRow.acknowledgedByUsername}.`
      : undefined,
  "assignment-active": ({ activeAssignments }) =>
    activeAssignments.length > 0 ? undefined : "The case has no active technologist assignment.",
  // Judged on the request (the new priority), never for the "allowed now" lists.
  "priority-changes": () => undefined,
};

/** Checked before every move, whatever the rule. */
const generalTransitionChecks: readonly CaseCheckId[] = ["case-not-archived", "no-pending-transition"];

const actionChecks: Record<CaseActionName, readonly CaseCheckId[]> = {
  "assign-technologist": ["case-not-archived", "case-open"],
  "end-assignment": ["case-not-archived", "assignment-active"],
  "assign-reviewer": ["case-not-archived", "case-open"],
  "set-priority": ["case-not-archived", "case-open"],
  acknowledge: ["case-not-archived", "case-open", "before-review", "stat-priority", "not-acknowledged"],
};

export async function runChecks(checks: readonly CaseCheckId[], context: CheckContext): Promise<FailedCheck[]> {
  const failed: FailedCheck[] = [];
  for (const check of checks) {
    const message = await caseChecks[check](context);
    if (message) failed.push({ check, message });
  }
  return failed;
}

/** 409 naming the failed checks: the reasons in words in the message, their ids in `details.failedChecks`. */
export function preconditionFailed(prefix: string, failed: readonly FailedCheck[]): AppError {
  return new AppError("conflict", `${prefix}: ${failed.map((item) => item.message).join(" ")}`, {
    failedChecks: failed.map((item) => item.check),
    checks: failed,
  });
}

export function transitionChecks(rule: TransitionRule, options: { includeReason: boolean }): CaseCheckId[] {
  return [
    ...generalTransitionChecks,
    ...rule.checks.filter((check) => options.includeReason || check !== "reason-given"),
  ];
}

export function actionChecksOf(action: CaseActionName): readonly CaseCheckId[] {
  return actionChecks[action];
}

/** The moves the user's permissions allow from the case's stage, each with the checks that fail now. */
export async function allowedTransitionsFor(user: WorkflowUser, context: CheckContext): Promise<AllowedTransition[]> {
  const result: AllowedTransition[] = [];
  for (const rule of caseTransitionRules) {
    if (rule.from !== context.caseRow.stage || !user.permissions.has(rule.permission)) continue;
    const failedChecks = await runChecks(transitionChecks(rule, { includeReason: false }), context);
    result.push({
      ruleId: rule.id,
      to: rule.to,
      label: rule.label,
      reasonRequired: rule.reasonRequired,
      needsApproval: rule.needsApproval,
      allowed: failedChecks.length === 0,
      failedChecks,
    });
  }
  return result;
}

/** The case actions the user's permissions allow, each with the preconditions that fail now. */
export async function allowedActionsFor(user: WorkflowUser, context: CheckContext): Promise<AllowedAction[]> {
  const result: AllowedAction[] = [];
  for (const action of caseActionNames) {
    const rule = caseActionRules[action];
    if (!user.permissions.has(rule.permission)) continue;
    const failedChecks = await runChecks(actionChecks[action], context);
    result.push({ action, label: rule.label, allowed: failedChecks.length === 0, failedChecks });
  }
  return result;
}

/** What the user may do with a transition: decide (cases:approve), cancel (requester or approver), comment. */
export function transitionActionsFor(
  user: WorkflowUser,
  transition: TransitionRow,
): ("approve" | "reject" | "cancel" | "comment")[] {
  const actions: ("approve" | "reject" | "cancel" | "comment")[] = [];
  if (transition.status === "pending") {
    if (user.permissions.has("cases:approve")) actions.push("approve", "reject");
    if (user.permissions.has("cases:approve") || transition.requestedBySub === user.sub) actions.push("cancel");
  }
  if (user.permissions.has("cases:workflow")) actions.push("comment");
  return actions;
}

/**
 * Each field a PATCH would change needs the permission `caseFieldRules` names: the same as the action or move that
 * makes that change (a technologist set the priority there while `set-priority` refused them). A field sent with the
 * value it already has is no change, so a form may send every field it shows.
 */
export function assertMayChangeFields(
  row: CaseRow,
  input: Partial<Record<CaseField, UpdateCaseRequest[CaseField]>>,
  user: WorkflowUser,
): void {
  const refused = caseFields.filter((field) => {
    const value = input[field];
    if (value === undefined || mayChangeCaseField(field, user.permissions)) return false;
    const current = row[field];
    const unchanged =
      current instanceof Date
        ? typeof value === "string" && Date.parse(value) === current.getTime()
        : value === current;
    return !unchanged;
  });
  if (refused.length === 0) return;
  const labels = refused.map((field) => caseFieldRules[field].label);
  const named = labels.length === 1 ? labels[0] : `${labels.slice(0, -1).join(", ")} and ${labels.at(-1)}`;
  throw new AppError("forbidden", `Your access groups do not allow changing the ${named} of a case.`, {
    issues: refused.map((field) => ({
      path: `body.${field}`,
      message: `may be changed only with the ${caseFieldRules[field].permission} permission`,
    })),
  });
}
