import {
  type Case,
  type CaseActionName,
  type caseActionRequestSchema,
  caseActionRules,
  caseTransitionRules,
  findTransitionRule,
  type TransitionResult,
  type transitionActionRequestSchema,
  type transitionRequestSchema,
  type User,
} from "@vigil/contract";
import type { z } from "zod";
import { auditedWrite } from "../../audit/audited-write.js";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { isUniqueViolation } from "../../db/unique-violation.js";
import { AppError } from "../../errors/app-error.js";
import { findUserById } from "../../identity/user-directory.js";
import { getCurrentProtocolRevision } from "../clients/protocol-service.js";
import { recordCaseChange } from "../watch/watch-service.js";
import type { CaseDependencies } from "./case-dependencies.js";
import { actionChecksOf, preconditionFailed, runChecks, transitionChecks, type WorkflowUser } from "./case-workflow.js";
import {
  type CaseRow,
  endAssignments,
  findActiveAssignments,
  findTransition,
  insertAssignment,
  insertTransition,
  insertTransitionAction,
  type TransitionRow,
  updateCaseRow,
  updateTransitionRow,
} from "./cases-repository.js";
import {
  type CaseActor,
  caseAuditTarget,
  checkContextOf,
  recordCaseAction,
  requireCase,
  toCase,
  toTransition,
} from "./cases-service.js";

type CaseActionRequest = z.output<typeof caseActionRequestSchema>;
type TransitionRequest = z.output<typeof transitionRequestSchema>;
type TransitionActionRequest = z.output<typeof transitionActionRequestSchema>;

/** A decision taken on an outdated screen never lands: a stale `version` is a 409 with the current one. */
function assertSeenVersion(row: CaseRow, version: number | undefined): void {
  if (version === undefined || version === row.version) return;
  throw new AppError(
    "conflict",
    `${row.caseNumber} was changed by someone else since you read it (you have version ${version}, the current one is ${row.version}). Reload it and try again.`,
    { currentVersion: row.version, stage: row.stage },
  );
}

function forbidden(message: string, permission: string): AppError {
  return new AppError("forbidden", message, { permission });
}

/** An enabled member of `group`, looked up through the identity service (before the transaction). */
async function requireStaff(
  db: Db,
  id: string,
  group: "technologist" | "reviewer",
  field: string,
): Promise<User | undefined> {
  const user = await findUserById(db, id);
  if (user?.isEnabled && user.groups.includes(group)) return user;
  const issue = { path: `body.${field}`, message: `is not an enabled ${group}` };
  throw new AppError("unprocessable", `The user ${user?.username ?? id} is not an enabled ${group}.`, {
    issues: [issue],
  });
}

/**
 * `POST cases/{id}/actions`. The case row is locked for update, so two actions (or an action and a move) on
 * one case run one after the other, each seeing the other's result.
 */
export async function takeCaseAction(
  db: Db,
  id: string,
  request: CaseActionRequest,
  actor: CaseActor,
  user: WorkflowUser,
  dependencies: CaseDependencies,
): Promise<Case> {
  const rule = caseActionRules[request.action];
  // 404 first: whoever reaches this route may read cases, so existence is no secret to them.
  await requireCase(db, id);
  if (!user.permissions.has(rule.permission)) {
    throw forbidden(`Your access groups do not allow "${rule.label}".`, rule.permission);
  }
  // Assignees are checked through the identity service before the transaction (PGlite has one connection).
  const technologist =
    request.action === "assign-technologist"
      ? await requireStaff(db, request.technologistId, "technologist", "technologistId")
      : undefined;
  const reviewer =
    request.action === "assign-reviewer"
      ? await requireStaff(db, request.reviewerId, "reviewer", "reviewerId")
      : undefined;
  const actingReviewer =
    request.action === "acknowledge" && !user.permissions.has("cases:assign")
      ? await findUserById(db, actor.sub)
      : undefined;

  const row = await db
    .transaction(async (tx) => {
      const locked = await requireCase(tx, id, "update");
      assertSeenVersion(locked, request.version);
      const context = await checkContextOf(tx, locked, dependencies);
      const failed = await runChecks(actionChecksOf(request.action), context);
      if (failed.length > 0) throw preconditionFailed(`${rule.label} is not possible now`, failed);
      return applyAction(tx, locked, request, actor, { technologist, reviewer, actingReviewer });
    })
    .catch((error: unknown) => {
      if (isUniqueViolation(error, "case_assignments_active_unique_idx")) {
        throw new AppError("conflict", "This technologist is already assigned to the case.", {
          failedChecks: [],
        });
      }
      throw error;
    });
  return toCase(db, row, user, dependencies);
}

async function applyAction(
  tx: Db,
  locked: CaseRow,
  request: CaseActionRequest,
  actor: CaseActor,
  people: { technologist?: User | undefined; reviewer?: User | undefined; actingReviewer?: User | undefined },
): Promise<CaseRow> {
  const action: CaseActionName = request.action;
  switch (request.action) {
    case "assign-technologist": {
      const technologist = people.technologist as User;
      const activeAssignments = await findActiveAssignments(tx, [locked.id]);
      if (activeAssignments.some((assignment) => assignment.technologistSub === technologist.sub)) {
        throw new AppError("conflict", `${technologist.name} is already assigned to ${locked.caseNumber}.`);
      }
      const assignment = await insertAssignment(tx, {
        caseId: locked.id,
        technologistSub: technologist.sub,
        technologistUsername: technologist.username,
        technologistName: technologist.name,
        assignedBySub: actor.sub,
        assignedByUsername: actor.username,
        assignedByName: actor.name,
      });
      const after = await updateCaseRow(tx, locked.id, {});
      await recordCaseAction(tx, actor, after, action, {
        assignmentId: assignment.id,
        technologist: { sub: technologist.sub, username: technologist.username, name: technologist.name },
      });
      return after;
    }
    case "end-assignment": {
      const [ended] = await endAssignments(tx, locked.id, request.assignmentId);
      if (!ended) {
        throw new AppError("conflict", "That assignment is not an active assignment of this case.", {
          failedChecks: ["assignment-active"],
          checks: [
            { check: "assignment-active", message: "That assignment is not an active assignment of this case." },
          ],
        });
      }
      const after = await updateCaseRow(tx, locked.id, {});
      await recordCaseAction(tx, actor, after, action, {
        assignmentId: ended.id,
        technologist: {
          sub: ended.technologistSub,
          username: ended.technologistUsername,
          name: ended.technologistName,
        },
      });
      return after;
    }
    case "assign-reviewer": {
      const reviewer = people.reviewer as User;
      const after = await updateCaseRow(tx, locked.id, {
        reviewerSub: reviewer.sub,
        reviewerUsername: reviewer.username,
        reviewerName: reviewer.name,
      });
      await recordCaseAction(tx, actor, after, action, {
        reviewer: { sub: reviewer.sub, username: reviewer.username, name: reviewer.name },
        previous: locked.reviewerUsername,
      });
      return after;
    }
    case "set-priority": {
      if (request.priority === locked.priority) {
        const message = `${locked.caseNumber} is already ${request.priority === "stat" ? "STAT" : "routine"}.`;
        throw preconditionFailed("Set priority is not possible now", [{ check: "priority-changes", message }]);
      }
      // A case made STAT again needs a fresh acknowledgement.
      const after = await updateCaseRow(tx, locked.id, {
        priority: request.priority,
        ...(request.priority === "stat"
          ? { acknowledgedAt: null, acknowledgedBySub: null, acknowledgedByUsername: null, acknowledgedByName: null }
          : {}),
      });
      await recordCaseAction(tx, actor, after, action, { from: locked.priority, to: request.priority });
      return after;
    }
    case "acknowledge": {
      // A reviewer who takes a STAT case becomes its reviewer when it has none.
      const takesReview = !locked.reviewerSub && people.actingReviewer?.groups.includes("reviewer");
      const after = await updateCaseRow(tx, locked.id, {
        acknowledgedAt: new Date(),
        acknowledgedBySub: actor.sub,
        acknowledgedByUsername: actor.username,
        acknowledgedByName: actor.name,
        ...(takesReview ? { reviewerSub: actor.sub, reviewerUsername: actor.username, reviewerName: actor.name } : {}),
      });
      await recordCaseAction(tx, actor, after, action, { becameReviewer: Boolean(takesReview) });
      return after;
    }
  }
}

function noSuchMove(row: CaseRow, to: string): AppError {
  if (row.stage === to) {
    return new AppError("conflict", `${row.caseNumber} is already in ${to}.`, { stage: row.stage, failedChecks: [] });
  }
  const possible = caseTransitionRules.filter((rule) => rule.from === row.stage).map((rule) => rule.to);
  return new AppError(
    "conflict",
    `${row.caseNumber} is in ${row.stage}; it cannot move to ${to}${possible.length ? ` (from ${row.stage} it can go to ${possible.join(" or ")})` : ""}.`,
    { stage: row.stage, failedChecks: [] },
  );
}

/** Moves the case (within the caller's transaction) and does what arriving in the new stage means. */
async function completeMove(
  tx: Db,
  locked: CaseRow,
  ruleId: string,
  actor: CaseActor,
  dependencies: CaseDependencies,
): Promise<CaseRow> {
  const rule = caseTransitionRules.find((candidate) => candidate.id === ruleId);
  if (!rule) throw new Error(`unknown transition rule ${ruleId}`);
  const values: Partial<CaseRow> = { stage: rule.to };
  if (rule.id === "start-monitoring") {
    // Pin the protocol the monitoring follows; `client-protocol-exists` has checked there is one.
    const current = await getCurrentProtocolRevision(tx, locked.clientId);
    values.protocolRevisionId = current?.id ?? null;
    values.recordingStartedAt = locked.recordingStartedAt ?? new Date();
  }
  // A case returned to monitoring is recording again: its period is open until someone sets a new end, so "End
  // monitoring" waits for one (`recording-ended`) instead of reusing the end that sent it to preview. The old end
  // stays in the case's history as the change this move made.
  const reopensRecording = rule.id === "return-to-monitoring" && locked.recordingEndedAt !== null;
  if (reopensRecording) values.recordingEndedAt = null;
  // A closed case has no one working on it.
  if (rule.id === "close") await endAssignments(tx, locked.id);
  const after = await updateCaseRow(tx, locked.id, values);
  if (rule.id === "start-monitoring") await dependencies.onCaseMilestone(tx, after, "monitoring-started");
  if (reopensRecording) {
    await recordCaseAction(tx, actor, after, "update", {
      version: after.version,
      changes: { recordingEndedAt: { from: locked.recordingEndedAt?.toISOString() ?? null, to: null } },
      cause: rule.label,
    });
  }
  return after;
}

/**
 * `POST cases/{id}/transitions`. Inside one transaction: lock the case row, re-read its stage and version, find
 * the rule, check who asks and the named checks, then move it (or record a pending request). Of two concurrent
 * moves exactly one wins; the other, once the lock is released, finds the case elsewhere and gets a 409.
 */
export async function requestTransition(
  db: Db,
  id: string,
  request: TransitionRequest,
  actor: CaseActor,
  user: WorkflowUser,
  dependencies: CaseDependencies,
): Promise<TransitionResult> {
  const reason = request.reason?.trim() || null;
  const { row, transition } = await db
    .transaction(async (tx) => {
      const locked = await requireCase(tx, id, "update");
      const rule = findTransitionRule(locked.stage, request.to);
      if (!rule) throw noSuchMove(locked, request.to);
      if (!user.permissions.has(rule.permission)) {
        throw forbidden(
          `Your access groups do not allow "${rule.label}" (${rule.from} → ${rule.to}) on ${locked.caseNumber}.`,
          rule.permission,
        );
      }
      assertSeenVersion(locked, request.version);
      // biome-ignore lint/plugin/leading-spread-then-keys: reason is a field of the check context
      const context = { ...(await checkContextOf(tx, locked, dependencies)), reason };
      const failed = await runChecks(transitionChecks(rule, { includeReason: true }), context);
      if (failed.length > 0) {
        throw preconditionFailed(`${locked.caseNumber} cannot move from ${rule.from} to ${rule.to}`, failed);
      }
      const transitionRow = await insertTransition(tx, {
        caseId: locked.id,
        ruleId: rule.id,
        fromStage: rule.from,
        toStage: rule.to,
        status: rule.needsApproval ? "pending" : "completed",
        reason,
        requestedBySub: actor.sub,
        requestedByUsername: actor.username,
        requestedByName: actor.name,
        ...(rule.needsApproval
          ? {}
          : {
              decidedBySub: actor.sub,
              decidedByUsername: actor.username,
              decidedByName: actor.name,
              decidedAt: new Date(),
            }),
      });
      // A pending request changes the case too (its version), so screens showing the old state learn of it.
      const after = rule.needsApproval
        ? await updateCaseRow(tx, locked.id, {})
        : await completeMove(tx, locked, rule.id, actor, dependencies);
      await recordAudit(
        tx,
        auditedWrite(
          actor,
          rule.needsApproval ? "case.transition.request" : "case.transition",
          caseAuditTarget(after),
          {
            caseNumber: after.caseNumber,
            transitionId: transitionRow.id,
            ruleId: rule.id,
            from: rule.from,
            to: rule.to,
            status: transitionRow.status,
            reason,
            version: after.version,
          },
        ),
      );
      await recordCaseChange(tx, { caseId: after.id, clientId: after.clientId, change: "stage" });
      return { row: after, transition: transitionRow };
    })
    .catch((error: unknown) => {
      if (isUniqueViolation(error, "case_transitions_pending_idx")) {
        throw new AppError("conflict", "Another move of this case is already waiting for approval.", {
          failedChecks: ["no-pending-transition"],
        });
      }
      throw error;
    });
  return { transition: toTransition(transition, user), case: await toCase(db, row, user, dependencies) };
}

/**
 * `POST cases/{id}/transitions/{transitionId}/actions`: approve and reject need `cases:approve`; cancel is the
 * requester's or an approver's; comment is anyone's who works on cases. Approving re-runs the rule's checks.
 */
export async function takeTransitionAction(
  db: Db,
  caseId: string,
  transitionId: string,
  request: TransitionActionRequest,
  actor: CaseActor,
  user: WorkflowUser,
  dependencies: CaseDependencies,
): Promise<TransitionResult> {
  const comment = request.comment?.trim() || null;
  if (request.action === "comment" && !comment) {
    const issue = { path: "body.comment", message: "is required for a comment" };
    throw new AppError("bad_request", `Invalid request: ${issue.path} ${issue.message}`, { issues: [issue] });
  }
  const { row, transition } = await db.transaction(async (tx) => {
    const locked = await requireCase(tx, caseId, "update");
    const found = await findTransition(tx, transitionId);
    if (!found || found.caseId !== caseId) {
      throw new AppError("not_found", `No transition ${transitionId} on ${locked.caseNumber}.`);
    }
    let current: TransitionRow = found;
    let after: CaseRow = locked;
    if (request.action !== "comment") {
      const mayDecide = user.permissions.has("cases:approve");
      if ((request.action === "approve" || request.action === "reject") && !mayDecide) {
        throw forbidden(`Only an administrator may ${request.action} this request.`, "cases:approve");
      }
      if (request.action === "cancel" && !mayDecide && found.requestedBySub !== actor.sub) {
        throw forbidden("Only the requester or an administrator may cancel this request.", "cases:approve");
      }
      if (found.status !== "pending") {
        throw new AppError("conflict", `This request is already ${found.status}.`, { status: found.status });
      }
      if (request.action === "approve") {
        if (locked.stage !== found.fromStage) throw noSuchMove(locked, found.toStage);
        const rule = caseTransitionRules.find((candidate) => candidate.id === found.ruleId);
        if (!rule) throw new Error(`unknown transition rule ${found.ruleId}`);
        // biome-ignore lint/plugin/leading-spread-then-keys: both are fields of the check context, set for this run
        const context = {
          ...(await checkContextOf(tx, locked, dependencies)),
          pendingTransition: undefined,
          reason: found.reason,
        };
        const failed = await runChecks(transitionChecks(rule, { includeReason: true }), context);
        if (failed.length > 0) {
          throw preconditionFailed(`${locked.caseNumber} cannot move from ${rule.from} to ${rule.to}`, failed);
        }
      }
      current = await updateTransitionRow(tx, found.id, {
        status: request.action === "approve" ? "completed" : request.action === "reject" ? "rejected" : "cancelled",
        decidedBySub: actor.sub,
        decidedByUsername: actor.username,
        decidedByName: actor.name,
        decidedAt: new Date(),
      });
      after =
        request.action === "approve"
          ? await completeMove(tx, locked, found.ruleId, actor, dependencies)
          : await updateCaseRow(tx, locked.id, {});
    }
    await insertTransitionAction(tx, {
      transitionId: found.id,
      caseId,
      action: request.action,
      comment,
      actorSub: actor.sub,
      actorUsername: actor.username,
      actorName: actor.name,
    });
    await recordAudit(
      tx,
      auditedWrite(actor, `case.transition.${request.action}`, caseAuditTarget(after), {
        caseNumber: after.caseNumber,
        transitionId: found.id,
        ruleId: found.ruleId,
        from: found.fromStage,
        to: found.toStage,
        status: current.status,
        comment,
      }),
    );
    await recordCaseChange(tx, { caseId: after.id, clientId: after.clientId, change: "stage" });
    return { row: after, transition: current };
  });
  return { transition: toTransition(transition, user), case: await toCase(db, row, user, dependencies) };
}
