import { type RecordKind, recommendedImpedanceKohm, type TimeLogItem } from "@vigil/contract";
import type { Db } from "../../db/client.js";
import { getCaseTimeline } from "../cases/case-lists-service.js";
import { impedanceDue } from "./impedance-rules.js";
import { authorOf, impedanceProtocolOf, toRecordItem } from "./record-items.js";
import type { RecordReader, RecordsContext } from "./record-types.js";
import {
  type CaseState,
  countUnacknowledgedNotifications,
  existsSignedInterpretation,
  findLatestRecordTime,
  findRecord,
  findRunningTimeLogsOf,
  findTimeLogsOfCase,
} from "./records-repository.js";
import { currentLoad, reviewCheckState } from "./time-log-rules.js";

/** What a record list shows above its items, per kind: signing, impedance due times, time-log loads and caps. */
export async function summaryOf(
  ctx: RecordsContext,
  kind: RecordKind,
  state: CaseState,
  reader: RecordReader,
  now: Date,
) {
  switch (kind) {
    case "interpretation":
      return {
        signed: await existsSignedInterpretation(ctx.db, state.id),
        canSign: reader.permissions.has("records:sign-interpretation"),
      };
    case "impedance":
      return impedanceSummary(ctx.db, state, now);
    case "event":
      return { unacknowledged: await countUnacknowledgedNotifications(ctx.db, state.id) };
    case "time-log":
      return timeLogSummary(ctx, state, reader, now);
    case "case-note":
    case "billing-note":
      return {};
  }
}

/** When monitoring started: the recording start, else the latest completed move into monitoring. */
async function monitoringStartedAt(db: Db, state: CaseState): Promise<Date | null> {
  if (state.recordingStartedAt) return state.recordingStartedAt;
  const timeline = await getCaseTimeline(db, state.id);
  const started = timeline.items.findLast(
    (entry) =>
      entry.kind === "transition" && entry.transition.to === "monitoring" && entry.transition.status === "completed",
  );
  return started ? new Date(started.at) : null;
}

async function impedanceSummary(db: Db, state: CaseState, now: Date) {
  const [protocol, lastCheckedAt] = await Promise.all([
    impedanceProtocolOf(db, state),
    findLatestRecordTime(db, { caseId: state.id, kind: "impedance", field: "checkedAt" }),
  ]);
  const due = impedanceDue({
    stage: state.stage,
    lastCheckedAt: lastCheckedAt ?? null,
    recordingStartedAt: state.recordingStartedAt,
    monitoringStartedAt: state.stage === "monitoring" && !lastCheckedAt ? await monitoringStartedAt(db, state) : null,
    intervalHours: protocol.intervalHours,
    now,
  });
  return {
    protocolRevision: protocol.protocolRevision,
    thresholdKohm: protocol.thresholdKohm,
    cautionKohm: recommendedImpedanceKohm,
    intervalHours: protocol.intervalHours,
    lastCheckedAt: lastCheckedAt?.toISOString() ?? null,
    dueAt: due.dueAt?.toISOString() ?? null,
    overdue: due.overdue,
  };
}

async function timeLogSummary(ctx: RecordsContext, state: CaseState, reader: RecordReader, now: Date) {
  const { db, caps } = ctx;
  const [logs, lastReviewCheckAt] = await Promise.all([
    findTimeLogsOfCase(db, state.id),
    findLatestRecordTime(db, { caseId: state.id, kind: "event", field: "occurredAt", eventType: "review-check" }),
  ]);
  const running = logs.filter((log) => log.endedAt === null);
  const mine = running.find((log) => log.technologistUsername === reader.username);
  const mineRow = mine ? await findRecord(db, { id: mine.recordId, caseId: state.id, kind: "time-log" }) : undefined;
  const runningMine = mineRow
    ? ((await toRecordItem("time-log", mineRow, { state, now, ...ctx })) as TimeLogItem)
    : null;

  // Each technologist running a log here, with their patients now on every case (DOMAIN.md §2.3 caps).
  const technologists = [...new Map(running.map((log) => [log.technologistUsername, log])).values()];
  const everywhere = await findRunningTimeLogsOf(
    db,
    technologists.map((log) => log.technologistUsername),
  );
  const loads = technologists.map((log) => {
    const load = currentLoad(everywhere.filter((other) => other.technologistUsername === log.technologistUsername));
    return {
      technologist: authorOf(log.technologistSub, log.technologistUsername, log.technologistName),
      ...load,
      overCap: load.intermittent > caps.intermittent || load.continuous > caps.continuous,
    };
  });

  const intermittentStarts = running.filter((log) => log.mode === "intermittent").map((log) => log.startedAt.getTime());
  const review = reviewCheckState({
    runningIntermittentStartedAt: intermittentStarts.length > 0 ? new Date(Math.min(...intermittentStarts)) : null,
    lastReviewCheckAt: lastReviewCheckAt ?? null,
    now,
  });
  const billableMilliseconds = logs
    .filter((log) => log.billable)
    .reduce((sum, log) => sum + Math.max(0, (log.endedAt ?? now).getTime() - log.startedAt.getTime()), 0);
  return {
    runningMine,
    caps: { intermittent: caps.intermittent, continuous: caps.continuous },
    technologists: loads,
    reviewCheck: {
      required: review.required,
      lastAt: review.lastAt?.toISOString() ?? null,
      dueAt: review.dueAt?.toISOString() ?? null,
      overdue: review.overdue,
    },
    billableMinutes: Math.floor(billableMilliseconds / 60_000),
  };
}
