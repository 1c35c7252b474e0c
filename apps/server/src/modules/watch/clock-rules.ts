import {
  type Author,
  type CaseStage,
  type ClockKind,
  type ClockOwner,
  type ClockState,
  clockStateAt as contractClockStateAt,
  type ServiceClock,
} from "@vigil/contract";
import { type ClockDraft, type ClockPromises, clockKindRules, dueAtOf, leadRankOf } from "./clock-kinds.js";

export { type ClockPromises, intermittentReviewMinutes, leadRankOf } from "./clock-kinds.js";

/**
 * A critical finding raised on the case, as its clock needs it. The window and due time are the finding's own, fixed
 * when it was raised from the protocol revision the case had then (PRODUCT.md §11): a later revision moves neither.
 */
export type FindingClockFacts = {
  raisedAt: Date;
  dueAt: Date;
  windowMinutes: number;
  acknowledgedAt: Date | null;
  /** Cancelled with a reason: the finding owes no acknowledgement, so it has no clock at all. */
  cancelled: boolean;
  raisedBy: Author;
};

/** Everything the clocks of one case are derived from: its stage history and records, nothing stored for them. */
export type CaseClockFacts = {
  caseId: string;
  stage: CaseStage;
  priority: "routine" | "stat";
  /** When the case became STAT: its creation as STAT, or the latest change of priority to STAT. */
  statSince: Date | null;
  acknowledgedAt: Date | null;
  recordingStartedAt: Date | null;
  recordingEndedAt: Date | null;
  /** The latest entry into preview, and the first entry into reviewed after it. */
  previewSince: Date | null;
  reviewedAt: Date | null;
  lastImpedanceCheckAt: Date | null;
  /** The running time log in intermittent mode, if any. */
  intermittentLog: { startedAt: Date; technologist: Author } | null;
  lastReviewCheckAt: Date | null;
  technologist: Author | null;
  reviewer: Author | null;
  promises: ClockPromises;
  /** The case's critical findings, in any order. */
  findings: FindingClockFacts[];
};

export type ClockSettings = {
  /** A running clock is `due-soon` once no more than this share of its window is left (0–1). */
  dueSoonShare: number;
};

const minute = 60_000;

function ownerOf(user: Author | null): ClockOwner {
  return user ? { kind: "user", user } : { kind: "coordinators" };
}

/**
 * A clock's state at `now` (the contract's rule), its "due soon" point placed by the configured share of its
 * window. Windows are durations, so a clock that spans a daylight-saving change lasts exactly its hours of real
 * time, whatever the wall clock in the client's zone shows.
 */
export function clockStateAt(
  clock: { dueAt: Date; stoppedAt: Date | null; windowMinutes: number },
  now: Date,
  settings: ClockSettings,
): ClockState {
  return contractClockStateAt(
    {
      dueSoonAt: dueSoonAtOf(clock.dueAt, clock.windowMinutes, settings).getTime(),
      dueAt: clock.dueAt.getTime(),
      stoppedAt: clock.stoppedAt?.getTime() ?? null,
    },
    now.getTime(),
  );
}

function dueSoonAtOf(dueAt: Date, windowMinutes: number, settings: ClockSettings): Date {
  return new Date(dueAt.getTime() - windowMinutes * minute * settings.dueSoonShare);
}

/**
 * The case's clocks as its latest facts give them, by the one rule of each kind (`clock-kinds.ts`): the facts are
 * the part of the case's history the board needs, so each rule is fed the latest step of each chain, the latest
 * hand-over to preview and the STAT period that runs now.
 */
function draftsOf(facts: CaseClockFacts): ClockDraft[] {
  const drafts: ClockDraft[] = [];
  const { promises } = facts;
  const beforeReview = facts.stage === "intake" || facts.stage === "monitoring" || facts.stage === "preview";
  const reviewer = () => facts.reviewer;

  if (facts.priority === "stat" && facts.statSince) {
    const acknowledgements = facts.acknowledgedAt ? [facts.acknowledgedAt] : [];
    // Past review without being taken: the chance has passed, at the review or, made STAT after it, at once.
    const reviewedAt = facts.reviewedAt && facts.reviewedAt > facts.statSince ? facts.reviewedAt : facts.statSince;
    const reviewedUntakenAt = beforeReview ? null : reviewedAt;
    drafts.push(
      ...clockKindRules["stat-acknowledgement"].clocks(
        { from: facts.statSince, to: null },
        acknowledgements,
        reviewedUntakenAt,
        promises,
        reviewer,
      ),
    );
  }

  const monitoring = facts.stage === "monitoring" && facts.recordingStartedAt && !facts.recordingEndedAt;
  if (monitoring && facts.recordingStartedAt) {
    const technologist = facts.technologist;
    drafts.push(
      ...clockKindRules["impedance-check"].clocks(
        { from: facts.recordingStartedAt, until: null },
        facts.lastImpedanceCheckAt ? [facts.lastImpedanceCheckAt] : [],
        promises,
        () => technologist,
      ),
    );
    const log = facts.intermittentLog;
    if (log) {
      drafts.push(
        ...clockKindRules["intermittent-review"].clocks(
          { from: log.startedAt, until: null },
          facts.lastReviewCheckAt ? [facts.lastReviewCheckAt] : [],
          () => log.technologist,
        ),
      );
    }
  }

  const reviewing = facts.stage === "preview" || facts.stage === "reviewed" || facts.stage === "closed";
  if (reviewing && facts.previewSince) {
    const reviewed = facts.reviewedAt && facts.reviewedAt >= facts.previewSince ? facts.reviewedAt : null;
    drafts.push(
      ...clockKindRules["review-turnaround"].clocks(
        facts.previewSince,
        reviewed ? { at: reviewed, to: "reviewed" } : null,
        promises,
        reviewer,
      ),
    );
  }

  for (const finding of facts.findings) {
    if (finding.cancelled) continue;
    drafts.push(...clockKindRules["critical-notification"].clocks({ cancelledAt: null, ...finding }, finding.raisedBy));
  }
  // The board keeps what runs or was decided now: a chain's earlier clocks were stopped by the step that restarted it.
  return drafts.filter((draft) => !draft.restarted);
}

/** Every service clock of one case at `now`, in the order they fall due. */
export function clocksOfCase(facts: CaseClockFacts, now: Date, settings: ClockSettings): ServiceClock[] {
  return draftsOf(facts)
    .map((draft) => {
      const dueAt = dueAtOf(draft);
      const dueSoonAt = dueSoonAtOf(dueAt, draft.windowMinutes, settings);
      const state: ClockState = draft.lapsed
        ? "missed"
        : clockStateAt({ dueAt, stoppedAt: draft.stoppedAt, windowMinutes: draft.windowMinutes }, now, settings);
      return {
        kind: draft.kind,
        caseId: facts.caseId,
        startedAt: draft.startedAt.toISOString(),
        dueSoonAt: dueSoonAt.toISOString(),
        dueAt: dueAt.toISOString(),
        stoppedAt: draft.stoppedAt?.toISOString() ?? null,
        windowMinutes: draft.windowMinutes,
        state,
        owner: ownerOf(draft.owner(dueAt)),
      };
    })
    .sort((a, b) => Date.parse(a.dueAt) - Date.parse(b.dueAt));
}

/** A clock still running, as the board keeps it: its due time is fixed, its state follows the time of reading. */
export type RunningClock = {
  kind: ClockKind;
  startedAt: Date;
  dueAt: Date;
  windowMinutes: number;
  owner: ClockOwner;
};

/**
 * The clocks of one case that still run (not stopped, not lapsed), an open critical finding's first, then in the
 * order they fall due, at most one of each kind: the kept clocks are keyed by (case, kind), and only critical
 * findings can run several at once. Of those the earliest due is kept, the one about to break first; when it is
 * acknowledged the next open finding takes its place. The first is the case's row on the board (`is_next`): a
 * patient's seizure waiting for the hospital's acknowledgement comes before a late impedance check of the same case.
 */
export function runningClocksOf(facts: CaseClockFacts): RunningClock[] {
  const seen = new Set<ClockKind>();
  return draftsOf(facts)
    .filter((draft) => draft.stoppedAt === null && !draft.lapsed)
    .map((draft) => ({
      kind: draft.kind,
      startedAt: draft.startedAt,
      dueAt: dueAtOf(draft),
      windowMinutes: draft.windowMinutes,
      owner: ownerOf(draft.owner(dueAtOf(draft))),
    }))
    .sort(
      (a, b) =>
        leadRankOf(a.kind) - leadRankOf(b.kind) ||
        a.dueAt.getTime() - b.dueAt.getTime() ||
        a.startedAt.getTime() - b.startedAt.getTime(),
    )
    .filter((clock) => {
      if (seen.has(clock.kind)) return false;
      seen.add(clock.kind);
      return true;
    });
}

/** Running clocks, the ones the board watches. */
export function isRunning(clock: ServiceClock): boolean {
  return clock.state === "ok" || clock.state === "due-soon" || clock.state === "overdue";
}
