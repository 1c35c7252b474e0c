import type { Author, ClockKind, ServiceLevelPerson } from "@vigil/contract";

/**
 * Each clock kind's rule, written once (PRODUCT.md §10, docs/design/WATCH.md "Adding a clock kind"): its window,
 * what starts it, what stops or ends it, whose step it waits for. The live board (`clock-rules.ts`, from a case's
 * latest facts) and the service-level report's replay (`service-level-rules.ts`, from its whole history) both build
 * their clocks by these functions and differ only in what they feed them; `clock-kinds.property.test.ts` replays
 * generated histories against the live rules step by step. Words and the stopping step are the contract's
 * `clockKindDefinitions`.
 */

/** A documented real-time review at least every 2 h for intermittent monitoring (DOMAIN.md §2.3, confirmed). */
export const intermittentReviewMinutes = 120;

/** What a case's protocol revision promises, in the units the protocol states them. */
export type ClockPromises = {
  impedanceCheckIntervalHours: number;
  reviewTurnaroundHours: number;
  statAcknowledgeMinutes: number;
};

/** One clock instance before it is dated and judged: the shape both the board and the replay build. */
export type ClockDraft = {
  kind: ClockKind;
  startedAt: Date;
  windowMinutes: number;
  /** A due time fixed elsewhere (a critical finding's); otherwise the start plus the window. */
  dueAt?: Date;
  /** When the step that stops the clock was taken. */
  stoppedAt: Date | null;
  /** When the clock ended without its step (recording or log ended, sent back, made routine, reviewed untaken). */
  endedAt: Date | null;
  /** Stopped by the step that started the next clock of its chain: the board shows only the one running now. */
  restarted?: boolean;
  /** Ended without the step in a way that breaks the promise whatever the time (a STAT case reviewed untaken). */
  lapsed?: boolean;
  /** Released from the promise whenever it ended (a cancelled critical finding): nothing was owed. */
  waived?: boolean;
  /** Whose step it is at a moment (the board asks at the due time, the report at the decisive moment). */
  owner: (at: Date) => Author | null;
};

type Owner = ClockDraft["owner"];
const minute = 60_000;

/** The due time of a draft: its own fixed one, or its start plus its window. Windows are real time, whatever DST does. */
export function dueAtOf(draft: Pick<ClockDraft, "startedAt" | "windowMinutes" | "dueAt">): Date {
  return draft.dueAt ?? new Date(draft.startedAt.getTime() + draft.windowMinutes * minute);
}

/**
 * A chain of clocks restarted by each step: the first starts at `from`, each step after it stops the running one
 * and starts the next. Steps after `until` (the recording's or the log's end) do not count; the last clock ends
 * there, or still runs when `until` is null.
 */
function chainOf(
  kind: ClockKind,
  span: { from: Date; until: Date | null },
  steps: readonly Date[],
  windowMinutes: number,
  owner: Owner,
): ClockDraft[] {
  const inside = [...steps]
    .filter((step) => step > span.from && (span.until === null || step <= span.until))
    .sort((a, b) => a.getTime() - b.getTime());
  return [span.from, ...inside].map((startedAt, index) => {
    const next = inside[index] ?? null;
    return {
      kind,
      startedAt,
      windowMinutes,
      stoppedAt: next,
      endedAt: next ? null : span.until,
      restarted: next !== null,
      owner,
    };
  });
}

/**
 * Every clock kind: whose step it waits for in the report's per-person figures (`role`; null for a step that is no
 * member of staff's), whether an open one leads its case on the board, and its rule.
 */
export const clockKindRules = {
  /**
   * A reviewer takes a STAT case within the protocol's minutes: from becoming STAT, stopped by the first
   * acknowledgement from then on, ended by being made routine, lapsed (missed at once) when reviewed untaken.
   */
  "stat-acknowledgement": {
    role: "reviewer",
    leads: false,
    clocks(
      period: { from: Date; to: Date | null },
      acknowledgements: readonly Date[],
      reviewedUntakenAt: Date | null,
      promises: ClockPromises,
      owner: Owner,
    ): ClockDraft[] {
      const acknowledged =
        [...acknowledgements]
          .sort((a, b) => a.getTime() - b.getTime())
          .find((at) => at >= period.from && (period.to === null || at <= period.to)) ?? null;
      const lapsedAt = acknowledged ? null : reviewedUntakenAt;
      return [
        {
          kind: "stat-acknowledgement",
          startedAt: period.from,
          windowMinutes: promises.statAcknowledgeMinutes,
          stoppedAt: acknowledged,
          endedAt: acknowledged ? null : (lapsedAt ?? period.to),
          lapsed: lapsedAt !== null,
          owner,
        },
      ];
    },
  },
  /** While recording: from its start, restarted by each impedance check, until the recording ends. */
  "impedance-check": {
    role: "technologist",
    leads: false,
    clocks(
      recording: { from: Date; until: Date | null },
      checks: readonly Date[],
      promises: ClockPromises,
      owner: Owner,
    ): ClockDraft[] {
      return chainOf("impedance-check", recording, checks, promises.impedanceCheckIntervalHours * 60, owner);
    },
  },
  /** While an intermittent time log runs: from its start, restarted by each review-check event, until it ends. */
  "intermittent-review": {
    role: "technologist",
    leads: false,
    clocks(log: { from: Date; until: Date | null }, reviewChecks: readonly Date[], owner: Owner): ClockDraft[] {
      return chainOf("intermittent-review", log, reviewChecks, intermittentReviewMinutes, owner);
    },
  },
  /**
   * From an entry into preview (the complete recording handed to the reviewer): the next move out of preview stops
   * it when it is to reviewed and drops it otherwise (sent back to monitoring; the next hand-over starts a new one).
   */
  "review-turnaround": {
    role: "reviewer",
    leads: false,
    clocks(handover: Date, next: { at: Date; to: string } | null, promises: ClockPromises, owner: Owner): ClockDraft[] {
      return [
        {
          kind: "review-turnaround",
          startedAt: handover,
          windowMinutes: promises.reviewTurnaroundHours * 60,
          stoppedAt: next?.to === "reviewed" ? next.at : null,
          endedAt: next && next.to !== "reviewed" ? next.at : null,
          owner,
        },
      ];
    },
  },
  /**
   * From raising to the finding's own due time (fixed when raised, PRODUCT.md §11), stopped by the hospital's
   * acknowledgement whatever the stage; a cancelled finding owed nothing, even cancelled after its due time. The one
   * who raised it chases it, but the acknowledgement is the hospital's step, in no person's figures.
   */
  "critical-notification": {
    role: null,
    leads: true,
    clocks(
      finding: {
        raisedAt: Date;
        dueAt: Date;
        windowMinutes: number;
        acknowledgedAt: Date | null;
        cancelledAt: Date | null;
      },
      raisedBy: Author,
    ): ClockDraft[] {
      return [
        {
          kind: "critical-notification",
          startedAt: finding.raisedAt,
          windowMinutes: finding.windowMinutes,
          dueAt: finding.dueAt,
          stoppedAt: finding.acknowledgedAt,
          endedAt: finding.acknowledgedAt ? null : finding.cancelledAt,
          waived: !finding.acknowledgedAt && finding.cancelledAt !== null,
          owner: () => raisedBy,
        },
      ];
    },
  },
} satisfies Record<
  ClockKind,
  { role: ServiceLevelPerson["role"] | null; leads: boolean; clocks: (...args: never[]) => ClockDraft[] }
>;

/** 0 for a kind whose open clock leads its case (a critical finding's, PRODUCT.md §11), 1 for any other. */
export function leadRankOf(kind: ClockKind): number {
  return clockKindRules[kind].leads ? 0 : 1;
}
