import {
  type Author,
  type CaseClocks,
  type CasePriority,
  type CaseStage,
  casePrioritySchema,
  caseStageSchema,
  protocolContentSchema,
} from "@vigil/contract";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import { type CaseEventInput, publishCaseEvent } from "../../events/case-events.js";
import {
  deleteAllCaseClocks,
  findOpenCaseIds,
  findUnpinnedOpenCaseIds,
  hasUnkeptClocks,
  lockCaseClocksRebuild,
  replaceCaseClocks,
} from "./case-clocks-repository.js";
import {
  type CaseClockFacts,
  type ClockSettings,
  clocksOfCase,
  type FindingClockFacts,
  runningClocksOf,
} from "./clock-rules.js";
import { type CaseClockRow, type CaseFindingClockRow, findCaseClockRow } from "./watch-repository.js";

// A client without any protocol revision is held to the protocol's defaults, the same a new revision starts from.
const defaultPromises = protocolContentSchema.parse({ transferForm: { fields: [] } });

function dateOf(value: Date | string | null): Date | null {
  if (value === null) return null;
  return value instanceof Date ? value : new Date(value);
}

function personOf(sub: string | null, username: string | null, name: string | null): Author | null {
  return username ? { sub, username, name } : null;
}

function findingsOf(row: CaseClockRow): FindingClockFacts[] {
  const findings: CaseFindingClockRow[] = typeof row.findings === "string" ? JSON.parse(row.findings) : row.findings;
  return findings.map((finding) => ({
    raisedAt: new Date(finding.raisedAt),
    dueAt: new Date(finding.dueAt),
    windowMinutes: finding.windowMinutes,
    acknowledgedAt: dateOf(finding.acknowledgedAt),
    // The statement reads the findings not cancelled only.
    cancelled: false,
    raisedBy: { sub: finding.raisedBySub, username: finding.raisedByUsername, name: finding.raisedByName },
  }));
}

export function clockFactsOf(row: CaseClockRow): CaseClockFacts {
  const intermittentStartedAt = dateOf(row.intermittent_started_at);
  const intermittentTechnologist = personOf(row.intermittent_sub, row.intermittent_username, row.intermittent_name);
  return {
    caseId: row.case_id,
    stage: caseStageSchema.parse(row.stage) satisfies CaseStage,
    priority: casePrioritySchema.parse(row.priority) satisfies CasePriority,
    statSince: dateOf(row.stat_since),
    acknowledgedAt: dateOf(row.acknowledged_at),
    recordingStartedAt: dateOf(row.recording_started_at),
    recordingEndedAt: dateOf(row.recording_ended_at),
    previewSince: dateOf(row.preview_since),
    reviewedAt: dateOf(row.reviewed_at),
    lastImpedanceCheckAt: dateOf(row.last_impedance_check_at),
    intermittentLog:
      intermittentStartedAt && intermittentTechnologist
        ? { startedAt: intermittentStartedAt, technologist: intermittentTechnologist }
        : null,
    lastReviewCheckAt: dateOf(row.last_review_check_at),
    technologist: personOf(row.technologist_sub, row.technologist_username, row.technologist_name),
    reviewer: personOf(row.reviewer_sub, row.reviewer_username, row.reviewer_name),
    promises: {
      impedanceCheckIntervalHours: row.impedance_check_interval_hours ?? defaultPromises.impedanceCheckIntervalHours,
      reviewTurnaroundHours: row.review_turnaround_hours ?? defaultPromises.reviewTurnaroundHours,
      statAcknowledgeMinutes: row.stat_acknowledge_minutes ?? defaultPromises.statAcknowledgeMinutes,
    },
    findings: findingsOf(row),
  };
}

/** `GET cases/{id}/clocks`: every clock of the case at this moment, running and stopped. */
export async function getCaseClocks(db: Db, caseId: string, settings: ClockSettings): Promise<CaseClocks> {
  const row = await findCaseClockRow(db, caseId);
  if (!row) throw new AppError("not_found", `No case with id ${caseId}.`);
  const now = new Date();
  return { caseId, asOf: now.toISOString(), clocks: clocksOfCase(clockFactsOf(row), now, settings) };
}

/**
 * Recomputes the kept (running) clocks of one case from its facts, in the caller's transaction: the board reads
 * them instead of deriving every open case's clocks per request. Closed and archived cases keep none.
 */
export async function refreshCaseClocks(tx: Db, caseId: string): Promise<void> {
  const row = await findCaseClockRow(tx, caseId);
  if (!row || row.archived_at !== null || row.stage === "closed") {
    await replaceCaseClocks(tx, caseId, []);
    return;
  }
  const facts = clockFactsOf(row);
  const running = runningClocksOf(facts);
  await replaceCaseClocks(
    tx,
    caseId,
    running.map((clock, index) => ({
      caseId,
      kind: clock.kind,
      clientId: row.client_id,
      stage: facts.stage,
      priority: facts.priority,
      startedAt: clock.startedAt,
      dueAt: clock.dueAt,
      windowMinutes: clock.windowMinutes,
      ownerSub: clock.owner.kind === "user" ? clock.owner.user.sub : null,
      ownerUsername: clock.owner.kind === "user" ? clock.owner.user.username : null,
      ownerName: clock.owner.kind === "user" ? clock.owner.user.name : null,
      isNext: index === 0,
    })),
  );
}

/**
 * Every write to a case ends here, inside its transaction: the case's kept clocks are recomputed and the change is
 * published on the event stream (delivered when the transaction commits).
 */
export async function recordCaseChange(tx: Db, event: CaseEventInput): Promise<void> {
  await refreshCaseClocks(tx, event.caseId);
  await publishCaseEvent(tx, event);
}

/** A new protocol revision moves the clocks of the client's open cases that have not pinned one yet. */
export async function recordClientProtocolChange(tx: Db, clientId: string): Promise<void> {
  for (const caseId of await findUnpinnedOpenCaseIds(tx, clientId)) {
    await recordCaseChange(tx, { caseId, clientId, change: "clocks" });
  }
}

/** Recomputes the kept clocks of every open case: after a restore or a bulk load that bypassed the services. */
export async function rebuildCaseClocks(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    await lockCaseClocksRebuild(tx);
    return rebuildAll(tx);
  });
}

async function rebuildAll(tx: Db): Promise<number> {
  const caseIds = await findOpenCaseIds(tx);
  await deleteAllCaseClocks(tx);
  for (const caseId of caseIds) await refreshCaseClocks(tx, caseId);
  return caseIds.length;
}

/**
 * At the server's start: rebuilds the kept clocks when they look never built (a database from before them, a
 * restored backup of one, the bench's bulk load), else does nothing. Several instances starting at once rebuild
 * one after the other, and the later ones find nothing to do. Answers how many open cases were rebuilt.
 */
export async function rebuildCaseClocksIfNeeded(db: Db): Promise<number> {
  if (!(await hasUnkeptClocks(db))) return 0;
  return db.transaction(async (tx) => {
    await lockCaseClocksRebuild(tx);
    return (await hasUnkeptClocks(tx)) ? rebuildAll(tx) : 0;
  });
}
