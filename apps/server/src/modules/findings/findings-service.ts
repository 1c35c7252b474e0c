import {
  type CriticalFinding,
  type CriticalFindingKind,
  type CriticalFindingList,
  type cancelCriticalFindingInputSchema,
  criticalFindingKindLabels,
  type EventType,
  formatInstantInZone,
  type raiseCriticalFindingInputSchema,
  type recordFindingAcknowledgementInputSchema,
} from "@vigil/contract";
import type { z } from "zod";
import { type Actor, auditedWrite } from "../../audit/audited-write.js";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import { caseActorOf, requireCase } from "../cases/cases-service.js";
import { requireClient } from "../clients/clients-service.js";
import { getCurrentProtocolRevision, getProtocolRevisionById } from "../clients/protocol-service.js";
import { createCriticalFindingEvent } from "../records/records-service.js";
import { recordCaseChange } from "../watch/watch-service.js";
import { scheduleFindingEscalation, scheduleFindingMessages } from "./finding-job-kinds.js";
import { notifyLevel } from "./finding-notices.js";
import { dueAtOf, findingWindowOf } from "./finding-schedule.js";
import { toCriticalFinding } from "./finding-views.js";
import type { FindingsContext } from "./findings-context.js";
import {
  type FindingRow,
  findDeliveriesOf,
  findFinding,
  findFindingsOfCase,
  findRecipientsOf,
  findSentNotices,
  insertDeliveries,
  insertFinding,
  setAsideWaitingNotices,
  updateFinding,
} from "./findings-repository.js";

/*
 * Critical findings as staff handle them (PRODUCT.md §11): raised on a case in monitoring or preview, listed on the
 * case, acknowledged by phone or cancelled with a reason. Every write is one transaction that ends in the watch
 * module's `recordCaseChange`, so the finding's clock and the live event stream follow it.
 */

type RaiseInput = z.output<typeof raiseCriticalFindingInputSchema>;
type PhoneAcknowledgementInput = z.output<typeof recordFindingAcknowledgementInputSchema>;
type CancelInput = z.output<typeof cancelCriticalFindingInputSchema>;
type CaseRow = Awaited<ReturnType<typeof requireCase>>;

/** The seizure kinds are seizure events on the case; anything else urgent is an `other` event. */
const eventTypeOf: Record<CriticalFindingKind, EventType> = {
  "electrographic-seizure": "seizure",
  "electrographic-status-epilepticus": "seizure",
  "electroclinical-seizure": "seizure",
  "other-urgent": "other",
};

export const raisableStages = ["monitoring", "preview"] as const;

/** The case's findings with their recipients and messages, read in one go. */
async function findingsOf(db: Db, caseNumber: string, rows: FindingRow[]): Promise<CriticalFinding[]> {
  const ids = rows.map((row) => row.id);
  const [recipients, deliveries] = await Promise.all([findRecipientsOf(db, ids), findDeliveriesOf(db, ids)]);
  const now = new Date();
  return rows.map((row) => toCriticalFinding(row, caseNumber, recipients, deliveries, now));
}

/** `GET cases/{id}/critical-findings`: newest first. */
export async function listCriticalFindings(db: Db, caseId: string): Promise<CriticalFindingList> {
  const caseRow = await requireCase(db, caseId);
  return { items: await findingsOf(db, caseRow.caseNumber, await findFindingsOfCase(db, caseId)) };
}

export async function getCriticalFinding(db: Db, caseId: string, findingId: string): Promise<CriticalFinding> {
  const caseRow = await requireCase(db, caseId);
  const row = await findFinding(db, findingId, { caseId });
  if (!row) throw notFound(caseRow, findingId);
  const [finding] = await findingsOf(db, caseRow.caseNumber, [row]);
  return finding as CriticalFinding;
}

function notFound(caseRow: CaseRow, findingId: string): AppError {
  return new AppError("not_found", `${caseRow.caseNumber} has no critical finding with id ${findingId}.`);
}

/** The window of the case's pinned protocol revision, else the client's current one, in the caller's transaction. */
async function windowOf(tx: Db, caseRow: CaseRow) {
  const pinned = caseRow.protocolRevisionId ? await getProtocolRevisionById(tx, caseRow.protocolRevisionId) : undefined;
  const current = pinned ? undefined : await getCurrentProtocolRevision(tx, caseRow.clientId);
  return findingWindowOf(pinned, current);
}

const minute = 60_000;

function badField(path: string, message: string): AppError {
  return new AppError("bad_request", `Invalid request: ${path} ${message}`, { issues: [{ path, message }] });
}

/**
 * An EEG onset before the recording began cannot be on this recording: 400 naming the field and the start. Onsets are
 * typed to the minute, so one in the minute the recording started is taken.
 */
async function refuseOnsetBeforeRecording(tx: Db, caseRow: CaseRow, onsetAt: Date): Promise<void> {
  const started = caseRow.recordingStartedAt;
  if (!started || onsetAt.getTime() >= Math.floor(started.getTime() / minute) * minute) return;
  const { timezone } = await requireClient(tx, caseRow.clientId);
  throw badField(
    "body.onsetAt",
    `must not be before the recording started (${formatInstantInZone(started, timezone)})`,
  );
}

/**
 * `POST cases/{id}/critical-findings`: in one transaction under the case lock, the event record (with its revision),
 * the finding with its window, the first recipients and their messages, the audit event and the case change; then this
 * instance's worker is woken so the messages leave at once. 409 outside monitoring and preview.
 */
export async function raiseCriticalFinding(
  ctx: FindingsContext,
  caseId: string,
  input: RaiseInput,
  actor: Actor,
): Promise<CriticalFinding> {
  const author = await caseActorOf(ctx.db, actor);
  const now = new Date();
  const findingId = await ctx.db.transaction(async (tx) => {
    const caseRow = await requireCase(tx, caseId, "update");
    if (caseRow.archivedAt) {
      throw new AppError("conflict", `${caseRow.caseNumber} is archived; nothing can be raised on it.`);
    }
    if (!(raisableStages as readonly string[]).includes(caseRow.stage)) {
      throw new AppError(
        "conflict",
        `A critical finding can be raised only while the case is in monitoring or preview; ${caseRow.caseNumber} is in ${caseRow.stage}.`,
        { stage: caseRow.stage },
      );
    }
    await refuseOnsetBeforeRecording(tx, caseRow, new Date(input.onsetAt));
    const { windowMinutes, protocolRevisionId } = await windowOf(tx, caseRow);
    const label = criticalFindingKindLabels[input.kind];
    const eventRecordId = await createCriticalFindingEvent(
      tx,
      caseId,
      {
        occurredAt: input.onsetAt,
        type: eventTypeOf[input.kind],
        description: `Critical finding — ${label}: ${input.description}`,
        notification: null,
        skinCheck: null,
      },
      author,
      now,
    );
    const dueAt = dueAtOf(now, windowMinutes);
    const finding = await insertFinding(tx, {
      caseId,
      clientId: caseRow.clientId,
      eventRecordId,
      kind: input.kind,
      onsetAt: new Date(input.onsetAt),
      description: input.description,
      raisedAt: now,
      raisedBySub: author.sub,
      raisedByUsername: author.username,
      raisedByName: author.name,
      protocolRevisionId,
      windowMinutes,
      dueAt,
      status: "open",
      nextEscalationAt: dueAt,
    });
    const recipients = await notifyLevel(tx, ctx.settings, finding, caseRow, 0, now);
    await scheduleFindingEscalation(tx, finding.id, 1, dueAt);
    await recordAudit(
      tx,
      auditedWrite(actor, "critical-finding.raise", caseTarget(caseId), {
        caseNumber: caseRow.caseNumber,
        findingId: finding.id,
        kind: input.kind,
        eventRecordId,
        windowMinutes,
        recipients: recipients.map((recipient) => recipient.id),
      }),
    );
    await recordCaseChange(tx, { caseId, clientId: caseRow.clientId, change: "record" });
    return finding.id;
  });
  return getCriticalFinding(ctx.db, caseId, findingId);
}

const caseTarget = (caseId: string) => ({ type: "case", id: caseId });

/** Why a closed finding takes no more acknowledgements or cancellations, its time in the client's zone. */
function closedFindingMessage(row: FindingRow, timeZone: string): string {
  if (row.status === "acknowledged" && row.acknowledgedAt) {
    const at = formatInstantInZone(row.acknowledgedAt, timeZone);
    return `This finding was already acknowledged by ${row.acknowledgedName ?? "someone"} at ${at}.`;
  }
  const at = row.cancelledAt ? formatInstantInZone(row.cancelledAt, timeZone) : "an earlier time";
  return `This finding was already cancelled at ${at}: ${row.cancelReason ?? ""}`;
}

/**
 * Locks the finding and then its case (always in that order, as the worker does, so the two cannot deadlock), and
 * refuses a finding that is no longer open with 409.
 */
async function lockOpenFinding(tx: Db, caseId: string, findingId: string) {
  const row = await findFinding(tx, findingId, { caseId, lock: "update" });
  const caseRow = await requireCase(tx, caseId, "update");
  if (!row) throw notFound(caseRow, findingId);
  if (row.status !== "open") {
    const { timezone } = await requireClient(tx, caseRow.clientId);
    throw new AppError("conflict", closedFindingMessage(row, timezone), { status: row.status });
  }
  return { row, caseRow };
}

/** The reason a closed finding's waiting messages are not sent. */
export const notSentReason = (status: "acknowledged" | "cancelled") => `Not sent: the finding was already ${status}.`;

/**
 * When a phone acknowledgement happened, as staff typed it: a form gives the time to the minute, so a time in the
 * minute the finding was raised is taken as the moment it was raised, and one a little ahead of the server's clock
 * (the contract allows a few minutes' skew) as now. Earlier than the minute it was raised is refused with 400.
 */
export function phoneAcknowledgementTime(typed: Date, raisedAt: Date, now: Date): Date {
  const raisedMinute = Math.floor(raisedAt.getTime() / minute) * minute;
  if (typed.getTime() < raisedMinute) {
    throw badField("body.acknowledgedAt", "must not be before the finding was raised");
  }
  if (typed.getTime() < raisedAt.getTime()) return raisedAt;
  return typed.getTime() > now.getTime() ? now : typed;
}

/**
 * `POST …/{findingId}/acknowledgement`: an acknowledgement staff took by phone (who, when, read back). It stops the
 * escalation, and the messages still waiting are not sent.
 */
export async function recordPhoneAcknowledgement(
  ctx: FindingsContext,
  caseId: string,
  findingId: string,
  input: PhoneAcknowledgementInput,
  actor: Actor,
): Promise<CriticalFinding> {
  const recorder = await caseActorOf(ctx.db, actor);
  const now = new Date();
  await ctx.db.transaction(async (tx) => {
    const { row, caseRow } = await lockOpenFinding(tx, caseId, findingId);
    const acknowledgedAt = phoneAcknowledgementTime(new Date(input.acknowledgedAt), row.raisedAt, now);
    await updateFinding(tx, findingId, {
      status: "acknowledged",
      acknowledgedAt,
      acknowledgedName: input.name,
      acknowledgedVia: "phone",
      acknowledgedRecipientId: null,
      readBackConfirmed: input.readBackConfirmed,
      acknowledgementNote: input.note,
      recordedBySub: recorder.sub,
      recordedByUsername: recorder.username,
      recordedByName: recorder.name,
      nextEscalationAt: null,
    });
    const unsent = await setAsideWaitingNotices(tx, findingId, notSentReason("acknowledged"), now);
    await recordAudit(
      tx,
      auditedWrite(actor, "critical-finding.acknowledge", caseTarget(caseId), {
        caseNumber: caseRow.caseNumber,
        findingId,
        via: "phone",
        name: input.name,
        acknowledgedAt: acknowledgedAt.toISOString(),
        readBackConfirmed: input.readBackConfirmed,
        unsentMessages: unsent,
      }),
    );
    await recordCaseChange(tx, { caseId, clientId: caseRow.clientId, change: "record" });
  });
  return getCriticalFinding(ctx.db, caseId, findingId);
}

/**
 * Everyone a notice of the finding reached hears that it was cancelled, over each channel that reached them: a short
 * message in the same queue (sent, retried and shown like the others). Answers how many were queued.
 */
async function tellCancellation(tx: Db, findingId: string, now: Date): Promise<number> {
  const sent = await findSentNotices(tx, findingId);
  const seen = new Set<string>();
  const rows = sent.filter((delivery) => {
    const key = `${delivery.recipientId}|${delivery.channel}|${delivery.destination}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  await insertDeliveries(
    tx,
    rows.map((delivery) => ({
      recipientId: delivery.recipientId,
      findingId,
      purpose: "cancellation" as const,
      channel: delivery.channel,
      destination: delivery.destination,
      nextAttemptAt: now,
    })),
  );
  if (rows.length > 0) await scheduleFindingMessages(tx, findingId);
  return rows.length;
}

/**
 * `POST …/{findingId}/cancellation`: an open finding withdrawn with a reason; it owes nothing from then on. Its waiting
 * notices are not needed, and everyone already told is told it was cancelled.
 */
export async function cancelCriticalFinding(
  ctx: FindingsContext,
  caseId: string,
  findingId: string,
  input: CancelInput,
  actor: Actor,
): Promise<CriticalFinding> {
  const canceller = await caseActorOf(ctx.db, actor);
  const now = new Date();
  await ctx.db.transaction(async (tx) => {
    const { caseRow } = await lockOpenFinding(tx, caseId, findingId);
    await updateFinding(tx, findingId, {
      status: "cancelled",
      cancelledAt: now,
      cancelReason: input.reason,
      cancelledBySub: canceller.sub,
      cancelledByUsername: canceller.username,
      cancelledByName: canceller.name,
      nextEscalationAt: null,
    });
    const unsent = await setAsideWaitingNotices(tx, findingId, notSentReason("cancelled"), now);
    const told = await tellCancellation(tx, findingId, now);
    await recordAudit(
      tx,
      auditedWrite(actor, "critical-finding.cancel", caseTarget(caseId), {
        caseNumber: caseRow.caseNumber,
        findingId,
        reason: input.reason,
        unsentMessages: unsent,
        cancellationMessages: told,
      }),
    );
    await recordCaseChange(tx, { caseId, clientId: caseRow.clientId, change: "record" });
  });
  return getCriticalFinding(ctx.db, caseId, findingId);
}
