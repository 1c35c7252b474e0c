import type { ServiceLevelCriticalFindings, ServiceLevelMissedFinding } from "@vigil/contract";
import {
  type CaseHistory,
  type FindingHistory,
  percentileOf,
  percentilesOf,
  type Window,
} from "./service-level-rules.js";

/**
 * The service-level report's critical findings section (PRODUCT.md §11): a client's findings whose acknowledgement
 * fell due in the month (the same month their `critical-notification` clocks are counted in), with the loop's
 * measured times. Pure: `asOf` is the time of reading, as for the clocks.
 */

const minute = 60_000;

type CaseFinding = FindingHistory & { caseId: string; caseNumber: string };

/** Whole minutes from `from` to `to`, rounded to the nearest; never below 0 (an onset given a little ahead). */
function minutesBetween(from: Date, to: Date): number {
  return Math.max(0, Math.round((to.getTime() - from.getTime()) / minute));
}

function medianOf(values: number[]): number | null {
  if (values.length === 0) return null;
  return percentileOf(
    [...values].sort((a, b) => a - b),
    50,
  );
}

/** How the finding's window ended at `asOf`: a window is kept at its due time exactly, as every clock's is. */
function outcomeOf(finding: FindingHistory, asOf: Date) {
  if (finding.acknowledgedAt) return finding.acknowledgedAt <= finding.dueAt ? "in-time" : "late";
  if (finding.cancelledAt) return "cancelled";
  return asOf > finding.dueAt ? "not-acknowledged" : "pending";
}

/** Lateness in whole minutes, rounded up like every missed clock's: late by seconds is late by 1 minute. */
function lateMinutesOf(finding: FindingHistory, asOf: Date): number {
  const end = finding.acknowledgedAt ?? asOf;
  return Math.ceil(Math.max(0, end.getTime() - finding.dueAt.getTime()) / minute);
}

/**
 * Counts, durations and the missed windows of the findings due in `window`. Cancelled findings are counted (and said
 * so) but owe nothing: they are neither missed nor in the durations, which describe the findings that stood.
 */
export function criticalFindingsOf(
  histories: readonly CaseHistory[],
  window: Window,
  asOf: Date,
): ServiceLevelCriticalFindings {
  const month: CaseFinding[] = histories.flatMap((history) =>
    history.findings
      .filter((finding) => finding.dueAt >= window.start && finding.dueAt < window.end)
      .map((finding) => ({ ...finding, caseId: history.caseId, caseNumber: history.caseNumber })),
  );
  const outcomes = month.map((finding) => ({ finding, outcome: outcomeOf(finding, asOf) }));
  const count = (outcome: ReturnType<typeof outcomeOf>) => outcomes.filter((entry) => entry.outcome === outcome).length;
  const standing = month.filter((finding) => !finding.cancelledAt || finding.acknowledgedAt);

  const missed: ServiceLevelMissedFinding[] = outcomes
    .filter((entry) => entry.outcome === "late" || entry.outcome === "not-acknowledged")
    .map(({ finding }) => finding)
    .sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime() || a.caseNumber.localeCompare(b.caseNumber))
    .map((finding) => ({
      findingId: finding.id,
      caseId: finding.caseId,
      caseNumber: finding.caseNumber,
      kind: finding.kind,
      raisedAt: finding.raisedAt.toISOString(),
      dueAt: finding.dueAt.toISOString(),
      acknowledgedAt: finding.acknowledgedAt?.toISOString() ?? null,
      lateMinutes: lateMinutesOf(finding, asOf),
    }));

  return {
    count: month.length,
    acknowledgedInTime: count("in-time"),
    acknowledgedLate: count("late"),
    notAcknowledged: count("not-acknowledged"),
    pending: count("pending"),
    cancelled: count("cancelled"),
    acknowledgementMinutes: percentilesOf(
      month.flatMap((finding) =>
        finding.acknowledgedAt ? [minutesBetween(finding.raisedAt, finding.acknowledgedAt)] : [],
      ),
    ),
    onsetToRaisedMinutesP50: medianOf(standing.map((finding) => minutesBetween(finding.onsetAt, finding.raisedAt))),
    raisedToNotifiedMinutesP50: medianOf(
      standing.flatMap((finding) =>
        finding.firstNotifiedAt ? [minutesBetween(finding.raisedAt, finding.firstNotifiedAt)] : [],
      ),
    ),
    missed,
  };
}
