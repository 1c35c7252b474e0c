import {
  type Author,
  type CaseStage,
  type ClockKind,
  type ClockOwner,
  type CriticalFindingKind,
  clockKinds,
  type DurationPercentiles,
  type ServiceLevelBreach,
  type ServiceLevelKindFigures,
  type ServiceLevelPerson,
  type ServiceLevelSeriesMonth,
} from "@vigil/contract";
import { Temporal } from "temporal-polyfill";
import { type ClockDraft, type ClockPromises, clockKindRules, dueAtOf } from "./clock-kinds.js";

/**
 * Every clock instance a case ran, derived from its stored history (PRODUCT.md §10), for the monthly service-level
 * report. `clock-rules.ts` gives a case's clocks *now*; this feeds the same rules (`clock-kinds.ts`) the whole history: each
 * window between impedance checks, each intermittent review interval, each hand-over to preview, each STAT period,
 * each critical finding. Pure: no database, no clock of its own (`asOf` is the time of reading).
 */

/** A critical finding as stored: its window and due time were fixed when it was raised (PRODUCT.md §11). */
export type FindingHistory = {
  id: string;
  kind: CriticalFindingKind;
  onsetAt: Date;
  raisedAt: Date;
  dueAt: Date;
  windowMinutes: number;
  /** The first message sent to anyone; null while none was. */
  firstNotifiedAt: Date | null;
  acknowledgedAt: Date | null;
  cancelledAt: Date | null;
  raisedBy: Author;
};

/** One case's history as stored: stage moves, records and actions, each with its time. */
export type CaseHistory = {
  caseId: string;
  caseNumber: string;
  /** The pinned protocol revision's promises (the client's current revision before monitoring pins one). */
  promises: ClockPromises;
  /** Completed stage moves, in any order. */
  transitions: { at: Date; from: CaseStage; to: CaseStage }[];
  /** The recording as the case holds it now; a case returned to monitoring resumes its clock (as the live rule does). */
  recording: { startedAt: Date | null; endedAt: Date | null };
  /** `checkedAt` of every impedance check not deleted. */
  impedanceChecks: Date[];
  /** Intermittent time logs not deleted. */
  intermittentLogs: { startedAt: Date; endedAt: Date | null; technologist: Author }[];
  /** `occurredAt` of every review-check event not deleted. */
  reviewChecks: Date[];
  /** Periods the case was STAT: from becoming STAT to being made routine (null: still STAT). */
  statPeriods: { from: Date; to: Date | null }[];
  /** Every time a reviewer took the case ("Acknowledge"). */
  acknowledgements: Date[];
  technologistAssignments: { startedAt: Date; endedAt: Date | null; technologist: Author }[];
  /** Each change of the assigned reviewer, with who it became. */
  reviewerChanges: { at: Date; reviewer: Author }[];
  /** The reviewer now: whose the review clocks are when no change of reviewer was recorded. */
  currentReviewer: Author | null;
  /** Critical findings raised on the case, cancelled ones included. */
  findings: FindingHistory[];
};

/**
 * How an instance ended: `kept` (stopped at or before its due time), `missed` (stopped late, ended without the step
 * after its due time, a STAT case reviewed without being taken, or still running past its due time), `pending`
 * (running, not due yet), `dropped` (ended without the step before its due time: nothing was owed any more).
 */
export type ClockOutcome = "kept" | "missed" | "pending" | "dropped";

export type ClockInstance = {
  kind: ClockKind;
  caseId: string;
  caseNumber: string;
  startedAt: Date;
  dueAt: Date;
  /** When the step that stops the clock was taken. */
  stoppedAt: Date | null;
  /** When the clock ended without its step (recording ended, log ended, sent back, made routine, reviewed untaken). */
  endedAt: Date | null;
  outcome: ClockOutcome;
  /** Whose step it was at the decisive moment: the stop when kept, the due time otherwise. */
  owner: ClockOwner;
};

const second = 1_000;

function ownerOf(user: Author | null | undefined): ClockOwner {
  return user ? { kind: "user", user } : { kind: "coordinators" };
}

function technologistAt(history: CaseHistory, at: Date): Author | null {
  const active = history.technologistAssignments
    .filter((entry) => entry.startedAt <= at && (entry.endedAt === null || entry.endedAt > at))
    .sort((a, b) => b.startedAt.getTime() - a.startedAt.getTime());
  return active[0]?.technologist ?? null;
}

function reviewerAt(history: CaseHistory, at: Date): Author | null {
  if (history.reviewerChanges.length === 0) return history.currentReviewer;
  let found: Author | null = null;
  for (const change of [...history.reviewerChanges].sort((a, b) => a.at.getTime() - b.at.getTime())) {
    if (change.at > at) break;
    found = change.reviewer;
  }
  return found;
}

function outcomeOf(draft: ClockDraft, dueAt: Date, asOf: Date): ClockOutcome {
  if (draft.stoppedAt) return draft.stoppedAt <= dueAt ? "kept" : "missed";
  if (draft.waived) return "dropped";
  if (draft.lapsed) return "missed";
  if (draft.endedAt) return draft.endedAt > dueAt ? "missed" : "dropped";
  return asOf > dueAt ? "missed" : "pending";
}

function draftsOf(history: CaseHistory): ClockDraft[] {
  const { promises } = history;
  const drafts: ClockDraft[] = [];
  const transitions = [...history.transitions].sort((a, b) => a.at.getTime() - b.at.getTime());
  const reviewer = (at: Date) => reviewerAt(history, at);

  // Each period the case was STAT owes one acknowledgement, taken before review: the first move to reviewed in it
  // lapses it if untaken, and a case made STAT once reviewed could never be taken, so its period lapses at once.
  for (const period of history.statPeriods) {
    const stageThen = transitions.filter((move) => move.at <= period.from).at(-1)?.to ?? "intake";
    const reviewed =
      stageThen === "reviewed" || stageThen === "closed"
        ? period.from
        : (transitions.find(
            (move) => move.to === "reviewed" && move.at >= period.from && (!period.to || move.at < period.to),
          )?.at ?? null);
    drafts.push(
      ...clockKindRules["stat-acknowledgement"].clocks(period, history.acknowledgements, reviewed, promises, reviewer),
    );
  }

  if (history.recording.startedAt) {
    drafts.push(
      ...clockKindRules["impedance-check"].clocks(
        { from: history.recording.startedAt, until: history.recording.endedAt },
        history.impedanceChecks,
        promises,
        (at) => technologistAt(history, at),
      ),
    );
  }

  for (const log of history.intermittentLogs) {
    drafts.push(
      ...clockKindRules["intermittent-review"].clocks(
        { from: log.startedAt, until: log.endedAt },
        history.reviewChecks,
        () => log.technologist,
      ),
    );
  }

  // Each entry into preview starts one; the next move out of preview stops or drops it.
  transitions.forEach((move, index) => {
    if (move.to !== "preview") return;
    const next = transitions.slice(index + 1).find((later) => later.at >= move.at && later.from === "preview");
    drafts.push(...clockKindRules["review-turnaround"].clocks(move.at, next ?? null, promises, reviewer));
  });

  for (const finding of history.findings) {
    drafts.push(...clockKindRules["critical-notification"].clocks(finding, finding.raisedBy));
  }
  return drafts;
}

/** Every clock instance of one case, judged at `asOf`, in the order they fall due. */
export function clockInstancesOf(history: CaseHistory, asOf: Date): ClockInstance[] {
  return draftsOf(history)
    .map((draft) => {
      const dueAt = dueAtOf(draft);
      const outcome = outcomeOf(draft, dueAt, asOf);
      const decisiveAt = outcome === "kept" && draft.stoppedAt ? draft.stoppedAt : dueAt;
      return {
        kind: draft.kind,
        caseId: history.caseId,
        caseNumber: history.caseNumber,
        startedAt: draft.startedAt,
        dueAt,
        stoppedAt: draft.stoppedAt,
        endedAt: draft.endedAt,
        outcome,
        owner: ownerOf(draft.owner(decisiveAt)),
      };
    })
    .sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime());
}

// ---------------------------------------------------------------------------------------------------------------
// Months of a client's zone
// ---------------------------------------------------------------------------------------------------------------

/** A half-open interval [start, end) of instants. */
export type Window = { start: Date; end: Date };

function startOfMonth(month: Temporal.PlainYearMonth, timeZone: string): Date {
  return new Date(month.toPlainDate({ day: 1 }).toZonedDateTime(timeZone).epochMilliseconds);
}

/** Local midnight of the 1st → local midnight of the next 1st in the zone (DST changes make it 743 or 745 hours). */
export function monthWindowIn(month: string, timeZone: string): Window {
  const parsed = Temporal.PlainYearMonth.from(month);
  return { start: startOfMonth(parsed, timeZone), end: startOfMonth(parsed.add({ months: 1 }), timeZone) };
}

/** The `count` months ending with `month`, oldest first. */
export function monthsEndingWith(month: string, count: number): string[] {
  const last = Temporal.PlainYearMonth.from(month);
  return Array.from({ length: count }, (_, index) => last.subtract({ months: count - 1 - index }).toString());
}

/** A clock belongs to the month its due time falls in. */
export function dueIn(instance: ClockInstance, window: Window): boolean {
  return instance.dueAt >= window.start && instance.dueAt < window.end;
}

// ---------------------------------------------------------------------------------------------------------------
// Figures
// ---------------------------------------------------------------------------------------------------------------

/**
 * Nearest rank: the smallest value with at least p% of the values at or below it, always one of the values measured
 * (for [0, 1] the p50 is 0, where a spreadsheet's PERCENTILE.INC interpolates 0.5). The report says so beside it.
 */
export function percentileOf(sortedValues: readonly number[], percent: number): number {
  const rank = Math.max(1, Math.ceil((percent / 100) * sortedValues.length));
  return sortedValues[rank - 1] as number;
}

export function percentilesOf(values: number[]): DurationPercentiles | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentileOf(sorted, 50), p90: percentileOf(sorted, 90), max: sorted[sorted.length - 1] as number };
}

function lateMillisecondsOf(instance: ClockInstance, asOf: Date): number {
  const end = instance.stoppedAt ?? instance.endedAt ?? asOf;
  return Math.max(0, end.getTime() - instance.dueAt.getTime());
}

/**
 * Whole seconds, rounded up, the one rounding of every duration in the report: a step a moment past its due time is
 * late by 1 s, never by 0, and a clock that took longer than its window never reads as taking the window exactly.
 */
export function secondsOf(milliseconds: number): number {
  return Math.ceil(Math.max(0, milliseconds) / second);
}

function lateSecondsOf(instance: ClockInstance, asOf: Date): number {
  return secondsOf(lateMillisecondsOf(instance, asOf));
}

function takenSecondsOf(instance: ClockInstance): number | null {
  if (!instance.stoppedAt) return null;
  return secondsOf(instance.stoppedAt.getTime() - instance.startedAt.getTime());
}

/** Per kind, in the contract's order: kept, missed, pending, time taken and lateness. */
export function kindFiguresOf(
  instances: readonly ClockInstance[],
  window: Window,
  asOf: Date,
): ServiceLevelKindFigures[] {
  const month = instances.filter((instance) => dueIn(instance, window));
  return clockKinds.map((kind) => {
    const ofKind = month.filter((instance) => instance.kind === kind);
    const missed = ofKind.filter((instance) => instance.outcome === "missed");
    return {
      kind,
      kept: ofKind.filter((instance) => instance.outcome === "kept").length,
      missed: missed.length,
      pending: ofKind.filter((instance) => instance.outcome === "pending").length,
      takenSeconds: percentilesOf(ofKind.map(takenSecondsOf).filter((value): value is number => value !== null)),
      lateSeconds: percentilesOf(missed.map((instance) => lateSecondsOf(instance, asOf))),
    };
  });
}

/** The missed clocks of the month, by due time. */
export function breachesOf(instances: readonly ClockInstance[], window: Window, asOf: Date): ServiceLevelBreach[] {
  return instances
    .filter((instance) => instance.outcome === "missed" && dueIn(instance, window))
    .sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime() || a.caseNumber.localeCompare(b.caseNumber))
    .map((instance) => ({
      caseId: instance.caseId,
      caseNumber: instance.caseNumber,
      kind: instance.kind,
      startedAt: instance.startedAt.toISOString(),
      dueAt: instance.dueAt.toISOString(),
      stoppedAt: instance.stoppedAt?.toISOString() ?? null,
      end: instance.stoppedAt ? "stopped" : instance.endedAt ? "ended" : "running",
      lateSeconds: lateSecondsOf(instance, asOf),
    }));
}

function countsOf(instances: readonly ClockInstance[]) {
  return clockKinds.map((kind) => ({
    kind,
    kept: instances.filter((instance) => instance.kind === kind && instance.outcome === "kept").length,
    missed: instances.filter((instance) => instance.kind === kind && instance.outcome === "missed").length,
  }));
}

/** Kept and missed per kind for each month, in the order given. */
export function seriesOf(
  instances: readonly ClockInstance[],
  months: readonly { month: string; window: Window }[],
): ServiceLevelSeriesMonth[] {
  return months.map(({ month, window }) => ({
    month,
    kinds: countsOf(instances.filter((instance) => dueIn(instance, window))),
  }));
}

/** Whose step each clock waited for, from its kind's rule: a critical finding's is the hospital's, in no person's. */
function roleOf(kind: ClockKind): ServiceLevelPerson["role"] | null {
  return clockKindRules[kind].role;
}

/**
 * Kept and missed per owner of the month's decided clocks: technologists for the recording's clocks, reviewers for
 * the STAT and review ones; clocks nobody was assigned to are the coordinators' (`person: null`). Ordered by role,
 * then most missed first, then name.
 */
export function peopleOf(instances: readonly ClockInstance[], window: Window): ServiceLevelPerson[] {
  const groups = new Map<string, { role: ServiceLevelPerson["role"]; person: Author | null; items: ClockInstance[] }>();
  for (const instance of instances) {
    if (!dueIn(instance, window) || (instance.outcome !== "kept" && instance.outcome !== "missed")) continue;
    const role = roleOf(instance.kind);
    if (!role) continue;
    const person = instance.owner.kind === "user" ? instance.owner.user : null;
    const key = `${role}:${person?.username ?? ""}`;
    const group = groups.get(key) ?? { role, person, items: [] };
    group.items.push(instance);
    groups.set(key, group);
  }
  return [...groups.values()]
    .map(({ role, person, items }) => {
      const kinds = countsOf(items).filter((entry) => roleOf(entry.kind) === role);
      return {
        role,
        person,
        kinds,
        kept: kinds.reduce((sum, entry) => sum + entry.kept, 0),
        missed: kinds.reduce((sum, entry) => sum + entry.missed, 0),
      };
    })
    .sort(
      (a, b) =>
        a.role.localeCompare(b.role) ||
        b.missed - a.missed ||
        (a.person?.name ?? a.person?.username ?? "~").localeCompare(b.person?.name ?? b.person?.username ?? "~"),
    );
}
