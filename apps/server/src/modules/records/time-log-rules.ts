import { billableTimeMargins, type MonitoringMode } from "@vigil/contract";

/**
 * The arithmetic of time logs (DOMAIN.md §2.3), kept free of the database so it can be tested on its own.
 * A log is a half-open interval [start, end): one that ends when another starts does not overlap it. A running
 * log (end null) is open-ended.
 */
export type LogInterval = { start: Date; end: Date | null };

export type TechnologistCaps = { intermittent: number; continuous: number };

/** Intermittent monitoring needs a documented real-time review at least this often (CPT 2020). */
export const reviewCheckIntervalHours = 2;

/** How far ahead of the clock a start may lie (clocks of workstations drift; a planned start is no log). */
export const futureToleranceMinutes = 5;

/** Whole minutes from start to end, or to `now` while running; never negative. */
export function durationMinutes(log: LogInterval, now: Date): number {
  const end = (log.end ?? now).getTime();
  return Math.max(0, Math.floor((end - log.start.getTime()) / 60_000));
}

/** The concurrency cap of a mode; unmonitored recordings have none (nobody watches them live). */
export function capFor(mode: MonitoringMode, caps: TechnologistCaps): number | null {
  if (mode === "unmonitored") return null;
  return caps[mode];
}

/** Patients per mode right now, from a technologist's running logs: distinct cases per mode. */
export function currentLoad(running: readonly { caseId: string; mode: string }[]): {
  intermittent: number;
  continuous: number;
} {
  const casesOf = (mode: MonitoringMode) =>
    new Set(running.filter((log) => log.mode === mode).map((log) => log.caseId)).size;
  return { intermittent: casesOf("intermittent"), continuous: casesOf("continuous") };
}

export type ReviewCheckState = { required: boolean; lastAt: Date | null; dueAt: Date | null; overdue: boolean };

/**
 * Whether the case needs a review check now and when the next is due: required while an intermittent log runs;
 * counted from the latest review-check event, or from the start of the running intermittent monitoring when
 * there has been none.
 */
export function reviewCheckState(input: {
  runningIntermittentStartedAt: Date | null;
  lastReviewCheckAt: Date | null;
  now: Date;
}): ReviewCheckState {
  const required = input.runningIntermittentStartedAt !== null;
  const lastAt = input.lastReviewCheckAt ?? input.runningIntermittentStartedAt;
  if (!required || !lastAt) return { required, lastAt, dueAt: null, overdue: false };
  const dueAt = new Date(lastAt.getTime() + reviewCheckIntervalHours * 3_600_000);
  return { required, lastAt, dueAt, overdue: input.now.getTime() > dueAt.getTime() };
}

/**
 * Billable time must lie in the case's monitoring period, or it is billed in months the patient was never
 * monitored (a log dated months before the recording, a 20-hour log on a 4-minute recording). Such a log is
 * refused when it is written rather than accepted with a warning for billing to acknowledge: only the technologist
 * writing it knows the true times, and an acknowledged warning would still bill the wrong ones. The margins are
 * generous, because real work sits just outside the recording: hook-up and setup before the EEG is started
 * (often logged from the bedside clock), disconnecting after it ends. The contract holds them, for the editor.
 */
export const monitoringPeriodMargins = billableTimeMargins;

/**
 * What bounds the period: the recording start and end when set; before the recording start is known (intake), the
 * moment the case was opened, since no monitoring of it can have happened before its referral.
 */
export type MonitoringPeriod = { recordingStartedAt: Date | null; recordingEndedAt: Date | null; openedAt: Date };

/** Which edge of the period a log's start or end passes, and where that edge lies. */
export type PeriodIssue = {
  field: "startedAt" | "endedAt";
  edge: "recording-start" | "case-opened" | "recording-end";
  /** The recording start, the opening of the case, or the recording end. */
  at: Date;
};

const hourMs = 3_600_000;

/**
 * Where a log leaves the monitoring period (with the margins); empty when it lies inside. A running log is judged
 * by its start: it may have begun before the recording ended (the billing check refuses closing while it runs).
 */
export function monitoringPeriodIssues(log: LogInterval, period: MonitoringPeriod): PeriodIssue[] {
  const issues: PeriodIssue[] = [];
  const { beforeStartHours, afterEndHours } = monitoringPeriodMargins;
  const from = period.recordingStartedAt
    ? { edge: "recording-start" as const, at: period.recordingStartedAt }
    : { edge: "case-opened" as const, at: period.openedAt };
  if (log.start.getTime() < from.at.getTime() - beforeStartHours * hourMs) issues.push({ field: "startedAt", ...from });
  if (period.recordingEndedAt) {
    const latest = period.recordingEndedAt.getTime() + afterEndHours * hourMs;
    const field = log.start.getTime() > latest ? "startedAt" : log.end && log.end.getTime() > latest ? "endedAt" : null;
    if (field) issues.push({ field, edge: "recording-end", at: period.recordingEndedAt });
  }
  return issues;
}

/** "is more than 6 hours before the recording started (<time>)", the time as `format` words it. */
export function describePeriodIssue(issue: PeriodIssue, format: (instant: Date) => string): string {
  const { beforeStartHours, afterEndHours } = monitoringPeriodMargins;
  const when = format(issue.at);
  switch (issue.edge) {
    case "recording-start":
      return `is more than ${beforeStartHours} hours before the recording started (${when})`;
    case "case-opened":
      return `is more than ${beforeStartHours} hours before the case was opened (${when}) and the recording start is not set`;
    case "recording-end":
      return `is more than ${afterEndHours} hours after the recording ended (${when})`;
  }
}

/** What the technologist writing the log can do when the period, not the log, is wrong. */
export function periodIssueAdvice(issue: PeriodIssue): string {
  return issue.edge === "recording-end"
    ? "if the recording went on, correct its end first"
    : "if the recording began earlier, set its start first";
}
