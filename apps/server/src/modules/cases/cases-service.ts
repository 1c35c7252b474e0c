import type {
  Case,
  CaseSummary,
  CaseTransition,
  CaseUser,
  createCaseRequestSchema,
  ProtocolRevision,
  updateCaseRequestSchema,
} from "@vigil/contract";
import type { z } from "zod";
import { type Actor, auditedWrite, changesBetween } from "../../audit/audited-write.js";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import { assertVersion } from "../../http/versioning.js";
import { findUserById } from "../../identity/user-directory.js";
import { requireClient, requireWritableClient } from "../clients/clients-service.js";
import { getProtocolRevisionById } from "../clients/protocol-service.js";
import { recordCaseChange } from "../watch/watch-service.js";
import type { CaseDependencies } from "./case-dependencies.js";
import { findCaseOrder } from "./case-orders-repository.js";
import { allowedChangesFor, caseTabsFor } from "./case-screen-rules.js";
import {
  allowedActionsFor,
  allowedTransitionsFor,
  assertMayChangeFields,
  type CheckContext,
  transitionActionsFor,
  type WorkflowUser,
} from "./case-workflow.js";
import {
  type CaseActionRow,
  type CaseRow,
  findActiveAssignments,
  findCase,
  findCaseNumber,
  findLatestPatientDetails,
  findPendingTransitions,
  insertCase,
  insertCaseAction,
  insertPatientDetails,
  nextCaseNumberValue,
  type RowLock,
  type TransitionRow,
  updateCaseRow,
} from "./cases-repository.js";
import { assertPeriodKeepsBillableLogs } from "./recording-period.js";

/** A case as stored, for modules that take a case this service returned. */
export type { CaseRow };

type CreateCaseInput = z.output<typeof createCaseRequestSchema>;
type UpdateCaseInput = z.output<typeof updateCaseRequestSchema>;

/** Who acts on a case: the audit actor plus their display name (looked up before any transaction). */
export type CaseActor = Actor & { name: string | null };

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The case's human number (CM-2026-000123), or undefined when the id names no case. */
export async function getCaseNumber(db: Db, id: string): Promise<string | undefined> {
  return uuidPattern.test(id) ? findCaseNumber(db, id) : undefined;
}

export function toCaseSummary(row: CaseSummaryRow): CaseSummary {
  return {
    id: row.id,
    caseNumber: row.caseNumber,
    clientId: row.clientId,
    studyType: row.studyType,
    hasVideo: row.hasVideo,
    priority: row.priority,
    stage: row.stage,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What a case's summary is made of. */
type CaseSummaryRow = Pick<
  CaseRow,
  "id" | "caseNumber" | "clientId" | "studyType" | "hasVideo" | "priority" | "stage" | "createdAt" | "updatedAt"
>;

/** The display name of the acting user, read outside any transaction (PGlite has one connection). */
export async function caseActorOf(db: Db, actor: Actor): Promise<CaseActor> {
  const user = await findUserById(db, actor.sub);
  return { name: user?.name ?? null, ...actor };
}

export function person(sub: string | null, username: string | null, name: string | null): CaseUser | null {
  return username ? { sub, username, name } : null;
}

export function toTransition(row: TransitionRow, user: WorkflowUser): CaseTransition {
  return {
    id: row.id,
    caseId: row.caseId,
    ruleId: row.ruleId,
    from: row.fromStage,
    to: row.toStage,
    status: row.status,
    reason: row.reason,
    requestedBy: { sub: row.requestedBySub, username: row.requestedByUsername, name: row.requestedByName },
    requestedAt: row.createdAt.toISOString(),
    decidedBy: person(row.decidedBySub, row.decidedByUsername, row.decidedByName),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    allowedActions: transitionActionsFor(user, row),
  };
}

/** The state the named checks read, gathered once per answer. */
export async function checkContextOf(db: Db, row: CaseRow, dependencies: CaseDependencies): Promise<CheckContext> {
  const [activeAssignments, pending] = await Promise.all([
    findActiveAssignments(db, [row.id]),
    findPendingTransitions(db, [row.id]),
  ]);
  return { db, caseRow: row, activeAssignments, pendingTransition: pending[0], dependencies };
}

/** The full case as the API shows it to `user`, with what they may do now. */
export async function toCase(db: Db, row: CaseRow, user: WorkflowUser, dependencies: CaseDependencies): Promise<Case> {
  const context = await checkContextOf(db, row, dependencies);
  const [client, patient, order, pinned, allowedActions, allowedTransitions] = await Promise.all([
    requireClient(db, row.clientId),
    findLatestPatientDetails(db, row.id),
    findCaseOrder(db, row.id),
    row.protocolRevisionId ? getProtocolRevisionById(db, row.protocolRevisionId) : undefined,
    allowedActionsFor(user, context),
    allowedTransitionsFor(user, context),
  ]);
  return {
    client: { id: client.id, name: client.name, code: client.code, timezone: client.timezone },
    patient: patient
      ? {
          mrn: patient.mrn,
          firstName: patient.firstName,
          lastName: patient.lastName,
          dateOfBirth: patient.dateOfBirth,
          sex: patient.sex,
          location: { unit: patient.locationUnit, room: patient.locationRoom, bed: patient.locationBed },
          revision: patient.revision,
        }
      : null,
    technologists: context.activeAssignments.map((assignment) => ({
      id: assignment.id,
      technologist: {
        sub: assignment.technologistSub,
        username: assignment.technologistUsername,
        name: assignment.technologistName,
      },
      startedAt: assignment.startedAt.toISOString(),
      endedAt: assignment.endedAt?.toISOString() ?? null,
      assignedBy: {
        sub: assignment.assignedBySub,
        username: assignment.assignedByUsername,
        name: assignment.assignedByName,
      },
    })),
    reviewer: person(row.reviewerSub, row.reviewerUsername, row.reviewerName),
    acknowledgedBy: person(row.acknowledgedBySub, row.acknowledgedByUsername, row.acknowledgedByName),
    acknowledgedAt: row.acknowledgedAt?.toISOString() ?? null,
    protocolRevisionId: row.protocolRevisionId,
    protocolRevision: pinned?.revision ?? null,
    recordingStartedAt: row.recordingStartedAt?.toISOString() ?? null,
    recordingEndedAt: row.recordingEndedAt?.toISOString() ?? null,
    archivedAt: row.archivedAt?.toISOString() ?? null,
    createdBy: { sub: row.createdBySub, username: row.createdByUsername, name: row.createdByName },
    order,
    version: row.version,
    pendingTransition: context.pendingTransition ? toTransition(context.pendingTransition, user) : null,
    allowedActions,
    allowedTransitions,
    allowedChanges: allowedChangesFor(user, row),
    tabs: caseTabsFor(row),
    ...toCaseSummary(row),
  };
}

/** The case, or 404. */
export async function requireCase(db: Db, id: string, lock?: RowLock): Promise<CaseRow> {
  const row = await findCase(db, id, lock);
  if (!row) throw new AppError("not_found", `No case with id ${id}.`);
  return row;
}

export function caseAuditTarget(row: CaseRow) {
  return { type: "case", id: row.id };
}

/** A case action row (the timeline) and its audit event, in the caller's transaction. */
export async function recordCaseAction(
  tx: Db,
  actor: CaseActor,
  row: CaseRow,
  action: CaseActionRow["action"],
  details: Record<string, unknown>,
): Promise<void> {
  await insertCaseAction(tx, {
    caseId: row.id,
    action,
    details,
    actorSub: actor.sub,
    actorUsername: actor.username,
    actorName: actor.name,
  });
  await recordAudit(
    tx,
    auditedWrite(actor, `case.${action}`, caseAuditTarget(row), { caseNumber: row.caseNumber, ...details }),
  );
  await recordCaseChange(tx, { caseId: row.id, clientId: row.clientId, change: "case" });
}

export function caseNumberOf(value: number, at: Date): string {
  return `CM-${at.getUTCFullYear()}-${String(value).padStart(6, "0")}`;
}

/**
 * Opens a case in intake with patient-details revision 1. The client row is share-locked, so archiving the
 * client (which takes an update lock and counts open cases) waits for this and then sees the new case.
 */
export async function createCase(
  db: Db,
  input: CreateCaseInput,
  actor: CaseActor,
  user: WorkflowUser,
  dependencies: CaseDependencies,
) {
  const row = await db.transaction(async (tx) => {
    const client = await requireWritableClient(tx, input.clientId, "share");
    if (client.status !== "active") {
      const issue = {
        path: "body.clientId",
        message: `${client.name} is inactive; cases are opened for active clients`,
      };
      throw new AppError("conflict", `${client.name} is inactive; activate it before opening a case.`, {
        issues: [issue],
      });
    }
    const now = new Date();
    const patient = input.patient;
    const created = await insertCase(tx, {
      caseNumber: caseNumberOf(await nextCaseNumberValue(tx), now),
      clientId: client.id,
      studyType: input.studyType,
      hasVideo: input.hasVideo,
      priority: input.priority,
      stage: "intake",
      patientMrn: patient.mrn,
      patientFirstName: patient.firstName,
      patientLastName: patient.lastName,
      createdBySub: actor.sub,
      createdByUsername: actor.username,
      createdByName: actor.name,
    });
    await insertPatientDetails(tx, {
      caseId: created.id,
      revision: 1,
      mrn: patient.mrn,
      firstName: patient.firstName,
      lastName: patient.lastName,
      dateOfBirth: patient.dateOfBirth ?? null,
      sex: patient.sex,
      locationUnit: patient.location.unit ?? null,
      locationRoom: patient.location.room ?? null,
      locationBed: patient.location.bed ?? null,
      referringPhysician: patient.referringPhysician ?? null,
      indication: patient.indication ?? null,
      medications: patient.medications ?? null,
      notes: patient.notes ?? null,
      authorSub: actor.sub,
      authorUsername: actor.username,
      authorName: actor.name,
    });
    // The audit row names the case, never the patient: the audit log is read more widely than the record.
    await recordCaseAction(tx, actor, created, "create", {
      clientId: client.id,
      studyType: created.studyType,
      priority: created.priority,
      hasVideo: created.hasVideo,
      patientDetailsRevision: 1,
    });
    return created;
  });
  return toCase(db, row, user, dependencies);
}

export async function getCase(db: Db, id: string, user: WorkflowUser, dependencies: CaseDependencies): Promise<Case> {
  return toCase(db, await requireCase(db, id), user, dependencies);
}

const updatableFields = ["studyType", "hasVideo", "priority", "recordingStartedAt", "recordingEndedAt"] as const;

function describeForAudit(row: CaseRow) {
  return {
    studyType: row.studyType,
    hasVideo: row.hasVideo,
    priority: row.priority,
    recordingStartedAt: row.recordingStartedAt?.toISOString() ?? null,
    recordingEndedAt: row.recordingEndedAt?.toISOString() ?? null,
  };
}

/** PATCH: only the fields sent change. Closed and archived cases are read-only (409). */
export async function updateCase(
  db: Db,
  id: string,
  expectedVersions: readonly number[],
  input: UpdateCaseInput,
  actor: CaseActor,
  user: WorkflowUser,
  dependencies: CaseDependencies,
): Promise<Case> {
  const before = await requireCase(db, id);
  // The 412 carries the current case as the caller would see it; built outside the transaction (one connection).
  const current = expectedVersions.includes(before.version) ? undefined : await toCase(db, before, user, dependencies);
  const row = await db.transaction(async (tx) => {
    const locked = await requireCase(tx, id, "update");
    assertVersion(expectedVersions, locked, () => current);
    if (locked.archivedAt) throw new AppError("conflict", `${locked.caseNumber} is archived; it cannot change.`);
    if (locked.stage === "closed") {
      throw new AppError("conflict", `${locked.caseNumber} is closed; it must be re-opened before it changes.`);
    }
    assertMayChangeFields(locked, input, user);
    const values: Partial<CaseRow> = {};
    if (input.studyType !== undefined) values.studyType = input.studyType;
    if (input.hasVideo !== undefined) values.hasVideo = input.hasVideo;
    if (input.priority !== undefined) values.priority = input.priority;
    // As the set-priority action does: a case made STAT needs a fresh acknowledgement.
    if (input.priority === "stat" && locked.priority !== "stat") {
      Object.assign(values, {
        acknowledgedAt: null,
        acknowledgedBySub: null,
        acknowledgedByUsername: null,
        acknowledgedByName: null,
      });
    }
    if (input.recordingStartedAt !== undefined) {
      values.recordingStartedAt = input.recordingStartedAt ? new Date(input.recordingStartedAt) : null;
    }
    if (input.recordingEndedAt !== undefined) {
      values.recordingEndedAt = input.recordingEndedAt ? new Date(input.recordingEndedAt) : null;
    }
    const startedAt = values.recordingStartedAt === undefined ? locked.recordingStartedAt : values.recordingStartedAt;
    const endedAt = values.recordingEndedAt === undefined ? locked.recordingEndedAt : values.recordingEndedAt;
    const issues: { path: string; message: string }[] = [];
    if (endedAt && !startedAt) {
      issues.push({ path: "body.recordingEndedAt", message: "needs a recording start time" });
    }
    if (endedAt && startedAt && endedAt < startedAt) {
      issues.push({ path: "body.recordingEndedAt", message: "must not be before the recording start" });
    }
    const soon = Date.now() + 5 * 60_000;
    if (startedAt && startedAt.getTime() > soon) {
      issues.push({ path: "body.recordingStartedAt", message: "must not be in the future" });
    }
    if (endedAt && endedAt.getTime() > soon) {
      issues.push({ path: "body.recordingEndedAt", message: "must not be in the future" });
    }
    if (issues.length > 0) {
      throw new AppError("bad_request", `Invalid request: ${issues.map((i) => `${i.path} ${i.message}`).join("; ")}`, {
        issues,
      });
    }
    const periodChanges =
      startedAt?.getTime() !== locked.recordingStartedAt?.getTime() ||
      endedAt?.getTime() !== locked.recordingEndedAt?.getTime();
    if (periodChanges) {
      const period = { recordingStartedAt: startedAt, recordingEndedAt: endedAt };
      await assertPeriodKeepsBillableLogs(tx, locked, period, dependencies);
    }
    const after = await updateCaseRow(tx, id, values);
    await recordCaseAction(tx, actor, after, "update", {
      version: after.version,
      changes: changesBetween(describeForAudit(locked), describeForAudit(after), updatableFields),
    });
    return after;
  });
  return toCase(db, row, user, dependencies);
}

/**
 * DELETE archives: the case leaves every queue but keeps its history. Only cases still in intake, unless the
 * caller may archive in any stage (`cases:archive-any`, administrators).
 */
export async function archiveCase(
  db: Db,
  id: string,
  actor: CaseActor,
  user: WorkflowUser,
  dependencies: CaseDependencies,
): Promise<Case> {
  const row = await db.transaction(async (tx) => {
    const locked = await requireCase(tx, id, "update");
    if (locked.archivedAt) throw new AppError("conflict", `${locked.caseNumber} is already archived.`);
    if (locked.stage !== "intake" && !user.permissions.has("cases:archive-any")) {
      throw new AppError(
        "forbidden",
        `${locked.caseNumber} is in ${locked.stage}; only cases still in intake can be archived, except by an administrator.`,
        { stage: locked.stage },
      );
    }
    const after = await updateCaseRow(tx, id, { archivedAt: new Date() });
    await recordCaseAction(tx, actor, after, "archive", { stage: locked.stage });
    await dependencies.onCaseMilestone(tx, after, "archived");
    return after;
  });
  return toCase(db, row, user, dependencies);
}

/** The client protocol revision pinned when monitoring started (404 before it started). */
export async function getPinnedProtocol(db: Db, id: string): Promise<ProtocolRevision> {
  const row = await requireCase(db, id);
  const pinned = row.protocolRevisionId ? await getProtocolRevisionById(db, row.protocolRevisionId) : undefined;
  if (!pinned) {
    throw new AppError(
      "not_found",
      `${row.caseNumber} has no pinned client protocol yet; it is pinned when monitoring starts.`,
    );
  }
  return pinned;
}
