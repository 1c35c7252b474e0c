import type { ServiceLevelCriticalFindings, ServiceLevelMissedFinding } from "@vigil/contract";
import {
  type CaseHistory,
  type FindingHistory,
  percentileOf,
  percentilesOf,
  secondsOf,
  type Window,
} from "./service-level-rules.js";

/**
 * The service-level report's critical findings section (PRODUCT.md §11): a client's findings whose acknowledgement
 * fell due in the month (the same month their `critical-notification` clocks are counted in), with the loop's
 * measured times. Pure: `asOf` is the time of reading, as for the clocks.
 */

type CaseFinding = FindingHistory & { caseId: string; caseNumber: string };

/** Whole seconds from `from` to `to`, rounded up like every duration of the report; never below 0 (an early onset). */
function secondsBetween(from: Date, to: Date): number {
  return secondsOf(to.getTime() - from.getTime());
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

/** Lateness in whole seconds, rounded up like every missed clock's: late by a moment is late by 1 s, never 0. */
function lateSecondsOf(finding: FindingHistory, asOf: Date): number {
  const end = finding.acknowledgedAt ?? asOf;
  return secondsOf(end.getTime() - finding.dueAt.getTime());
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
      .map((finding) => ({ caseId: history.caseId, caseNumber: history.caseNumber, ...finding })),
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
      lateSeconds: lateSecondsOf(finding, asOf),
    }));

  return {
    count: month.length,
    acknowledgedInTime: count("in-time"),
    acknowledgedLate: count("late"),
    notAcknowledged: count("not-acknowledged"),
    pending: count("pending"),
    cancelled: count("cancelled"),
    acknowledgementSeconds: percentilesOf(
      month.flatMap((finding) =>
        finding.acknowledgedAt ? [secondsBetween(finding.raisedAt, finding.acknowledgedAt)] : [],
      ),
    ),
    onsetToRaisedSecondsP50: medianOf(standing.map((finding) => secondsBetween(finding.onsetAt, finding.raisedAt))),
    raisedToNotifiedSecondsP50: medianOf(
      standing.flatMap((finding) =>
        finding.firstNotifiedAt ? [secondsBetween(finding.raisedAt, finding.firstNotifiedAt)] : [],
      ),
    ),
    missed,
  };
}
