import type { ServiceClock } from "@vigil/contract";
import { describe, expect, it } from "vitest";
import {
  type CaseClockFacts,
  clockStateAt,
  clocksOfCase,
  type FindingClockFacts,
  runningClocksOf,
} from "./clock-rules.js";

const tech = { sub: "t-1", username: "tess", name: "Tess Tech" };
const reviewer = { sub: "r-1", username: "rita", name: "Rita Reviewer" };
const settings = { dueSoonShare: 0.25 };

function facts(overrides: Partial<CaseClockFacts> = {}): CaseClockFacts {
  return {
    caseId: "00000000-0000-4000-8000-000000000001",
    stage: "monitoring",
    priority: "routine",
    statSince: null,
    acknowledgedAt: null,
    recordingStartedAt: new Date("2026-03-01T08:00:00Z"),
    recordingEndedAt: null,
    previewSince: null,
    reviewedAt: null,
    lastImpedanceCheckAt: null,
    intermittentLog: null,
    lastReviewCheckAt: null,
    technologist: tech,
    reviewer: null,
    promises: { impedanceCheckIntervalHours: 24, reviewTurnaroundHours: 24, statAcknowledgeMinutes: 60 },
    findings: [],
    ...overrides,
  };
}

/** A critical finding raised by the reviewer at `raisedAt` with a window of `windowMinutes`, open unless told. */
function finding(
  raisedAt: string,
  windowMinutes: number,
  overrides: Partial<FindingClockFacts> = {},
): FindingClockFacts {
  const raised = new Date(raisedAt);
  return {
    raisedAt: raised,
    dueAt: new Date(raised.getTime() + windowMinutes * 60_000),
    windowMinutes,
    acknowledgedAt: null,
    cancelled: false,
    raisedBy: reviewer,
    ...overrides,
  };
}

function findingClocks(all: ServiceClock[]): ServiceClock[] {
  return all.filter((clock) => clock.kind === "critical-notification");
}

function clockOf(all: ServiceClock[], kind: ServiceClock["kind"]): ServiceClock {
  const clock = all.find((candidate) => candidate.kind === kind);
  if (!clock) throw new Error(`no ${kind} clock among ${all.map((c) => c.kind).join(", ")}`);
  return clock;
}

describe("service clocks", () => {
  it("runs the impedance clock from the latest check while monitoring, owned by the assigned technologist", () => {
    const clocks = clocksOfCase(
      facts({ lastImpedanceCheckAt: new Date("2026-03-02T06:00:00Z") }),
      new Date("2026-03-02T10:00:00Z"),
      settings,
    );
    const impedance = clockOf(clocks, "impedance-check");
    expect(impedance).toMatchObject({
      startedAt: "2026-03-02T06:00:00.000Z",
      dueAt: "2026-03-03T06:00:00.000Z",
      state: "ok",
      owner: { kind: "user", user: tech },
    });
  });

  it("turns due-soon when no more than the configured share of the window is left, and overdue only after the due time", () => {
    const clock = {
      dueAt: new Date("2026-03-02T00:00:00Z"),
      stoppedAt: null,
      windowMinutes: 24 * 60,
    };
    expect(clockStateAt(clock, new Date("2026-03-01T17:59:00Z"), settings)).toBe("ok");
    expect(clockStateAt(clock, new Date("2026-03-01T18:00:00Z"), settings)).toBe("due-soon");
    // Due exactly now: the promise still holds.
    expect(clockStateAt(clock, new Date("2026-03-02T00:00:00Z"), settings)).toBe("due-soon");
    expect(clockStateAt(clock, new Date("2026-03-02T00:00:00.001Z"), settings)).toBe("overdue");
  });

  it("counts a step taken exactly at the due time as met and a later one as missed", () => {
    const base = {
      dueAt: new Date("2026-03-01T01:00:00Z"),
      windowMinutes: 60,
    };
    const now = new Date("2026-03-05T00:00:00Z");
    expect(clockStateAt({ ...base, stoppedAt: new Date("2026-03-01T01:00:00Z") }, now, settings)).toBe("met");
    expect(clockStateAt({ ...base, stoppedAt: new Date("2026-03-01T01:00:01Z") }, now, settings)).toBe("missed");
  });

  it("keeps a 24-hour window 24 real hours across the spring daylight-saving change", () => {
    // New York springs forward on 2026-03-08 at 02:00 local: 08:00 EST on the 7th to 09:00 EDT on the 8th is 24 h.
    const clocks = clocksOfCase(
      facts({ recordingStartedAt: new Date("2026-03-07T13:00:00Z") }),
      new Date("2026-03-08T12:59:00Z"),
      settings,
    );
    const impedance = clockOf(clocks, "impedance-check");
    expect(impedance.dueAt).toBe("2026-03-08T13:00:00.000Z");
    expect(impedance.state).toBe("due-soon");
  });

  it("runs the two-hour review clock only while an intermittent time log runs, from the latest review check", () => {
    const without = clocksOfCase(facts(), new Date("2026-03-01T09:00:00Z"), settings);
    expect(without.map((clock) => clock.kind)).not.toContain("intermittent-review");

    const clocks = clocksOfCase(
      facts({
        intermittentLog: { startedAt: new Date("2026-03-01T08:00:00Z"), technologist: tech },
        lastReviewCheckAt: new Date("2026-03-01T09:30:00Z"),
      }),
      new Date("2026-03-01T11:45:00Z"),
      settings,
    );
    expect(clockOf(clocks, "intermittent-review")).toMatchObject({
      startedAt: "2026-03-01T09:30:00.000Z",
      dueAt: "2026-03-01T11:30:00.000Z",
      state: "overdue",
    });
  });

  it("stops watching impedance and reviews once the recording has ended", () => {
    const clocks = clocksOfCase(
      facts({
        recordingEndedAt: new Date("2026-03-02T08:00:00Z"),
        intermittentLog: { startedAt: new Date("2026-03-01T08:00:00Z"), technologist: tech },
      }),
      new Date("2026-03-02T09:00:00Z"),
      settings,
    );
    expect(clocks).toEqual([]);
  });

  it("runs the review turnaround from the latest entry into preview, owned by the coordinators until a reviewer is assigned", () => {
    const clocks = clocksOfCase(
      facts({
        stage: "preview",
        recordingEndedAt: new Date("2026-03-02T08:00:00Z"),
        previewSince: new Date("2026-03-02T09:00:00Z"),
      }),
      new Date("2026-03-02T10:00:00Z"),
      settings,
    );
    expect(clocks).toHaveLength(1);
    expect(clockOf(clocks, "review-turnaround")).toMatchObject({
      dueAt: "2026-03-03T09:00:00.000Z",
      state: "ok",
      owner: { kind: "coordinators" },
    });
  });

  it("drops the review clock of a case moved back from preview and starts a new one at the next hand-over", () => {
    const movedBack = clocksOfCase(
      facts({ stage: "monitoring", previewSince: new Date("2026-03-02T09:00:00Z") }),
      new Date("2026-03-02T12:00:00Z"),
      settings,
    );
    expect(movedBack.map((clock) => clock.kind)).toEqual(["impedance-check"]);

    const again = clocksOfCase(
      facts({
        stage: "reviewed",
        reviewer,
        recordingEndedAt: new Date("2026-03-03T08:00:00Z"),
        previewSince: new Date("2026-03-03T09:00:00Z"),
        // Reviewed before the second hand-over does not stop the second clock.
        reviewedAt: new Date("2026-03-03T20:00:00Z"),
      }),
      new Date("2026-03-04T12:00:00Z"),
      settings,
    );
    expect(clockOf(again, "review-turnaround")).toMatchObject({
      startedAt: "2026-03-03T09:00:00.000Z",
      stoppedAt: "2026-03-03T20:00:00.000Z",
      state: "met",
      owner: { kind: "user", user: reviewer },
    });
  });

  it("uses the promises it is given, so a case keeps its pinned revision when the client revises the protocol", () => {
    const pinned = clocksOfCase(facts(), new Date("2026-03-01T09:00:00Z"), settings);
    const revised = clocksOfCase(
      facts({ promises: { impedanceCheckIntervalHours: 8, reviewTurnaroundHours: 12, statAcknowledgeMinutes: 30 } }),
      new Date("2026-03-01T09:00:00Z"),
      settings,
    );
    expect(clockOf(pinned, "impedance-check").dueAt).toBe("2026-03-02T08:00:00.000Z");
    expect(clockOf(revised, "impedance-check").dueAt).toBe("2026-03-01T16:00:00.000Z");
  });

  it("runs the STAT clock until a reviewer takes the case, and counts a STAT case reviewed without being taken as missed", () => {
    const waiting = clocksOfCase(
      facts({
        stage: "intake",
        priority: "stat",
        statSince: new Date("2026-03-01T07:00:00Z"),
        recordingStartedAt: null,
      }),
      new Date("2026-03-01T07:50:00Z"),
      settings,
    );
    expect(clockOf(waiting, "stat-acknowledgement")).toMatchObject({
      state: "due-soon",
      owner: { kind: "coordinators" },
    });

    const taken = clocksOfCase(
      facts({
        stage: "intake",
        priority: "stat",
        statSince: new Date("2026-03-01T07:00:00Z"),
        acknowledgedAt: new Date("2026-03-01T07:20:00Z"),
        recordingStartedAt: null,
      }),
      new Date("2026-03-01T09:00:00Z"),
      settings,
    );
    expect(clockOf(taken, "stat-acknowledgement").state).toBe("met");

    const neverTaken = clocksOfCase(
      facts({
        stage: "reviewed",
        priority: "stat",
        statSince: new Date("2026-03-01T07:00:00Z"),
        previewSince: new Date("2026-03-01T10:00:00Z"),
        reviewedAt: new Date("2026-03-01T11:00:00Z"),
      }),
      new Date("2026-03-01T12:00:00Z"),
      settings,
    );
    expect(clockOf(neverTaken, "stat-acknowledgement")).toMatchObject({ state: "missed", stoppedAt: null });
  });

  it("lists a case's clocks in the order they fall due", () => {
    const clocks = clocksOfCase(
      facts({
        priority: "stat",
        statSince: new Date("2026-03-01T08:30:00Z"),
        intermittentLog: { startedAt: new Date("2026-03-01T08:00:00Z"), technologist: tech },
      }),
      new Date("2026-03-01T09:00:00Z"),
      settings,
    );
    expect(clocks.map((clock) => clock.kind)).toEqual([
      "stat-acknowledgement",
      "intermittent-review",
      "impedance-check",
    ]);
  });
});

describe("critical finding clocks", () => {
  const now = new Date("2026-03-01T12:00:00Z");

  it("runs from the finding's raising to its due time, owned by whoever raised it", () => {
    const clocks = clocksOfCase(facts({ findings: [finding("2026-03-01T11:50:00Z", 30)] }), now, settings);
    expect(clockOf(clocks, "critical-notification")).toMatchObject({
      startedAt: "2026-03-01T11:50:00.000Z",
      dueAt: "2026-03-01T12:20:00.000Z",
      windowMinutes: 30,
      stoppedAt: null,
      state: "ok",
      owner: { kind: "user", user: reviewer },
    });
  });

  it("counts an acknowledgement exactly at the due time as met and one a millisecond later as missed", () => {
    const atDue = finding("2026-03-01T11:00:00Z", 30, { acknowledgedAt: new Date("2026-03-01T11:30:00Z") });
    const late = finding("2026-03-01T11:00:00Z", 30, { acknowledgedAt: new Date("2026-03-01T11:30:00.001Z") });
    expect(clockOf(clocksOfCase(facts({ findings: [atDue] }), now, settings), "critical-notification").state).toBe(
      "met",
    );
    expect(clockOf(clocksOfCase(facts({ findings: [late] }), now, settings), "critical-notification").state).toBe(
      "missed",
    );
    // Stopped either way: the board keeps neither.
    expect(runningClocksOf(facts({ findings: [atDue, late] })).map((clock) => clock.kind)).toEqual(["impedance-check"]);
  });

  it("keeps an open finding as the case's first clock, ahead of an impedance check overdue since the day before", () => {
    // The recording started 2026-03-01T08:00 with a 24 h interval: the impedance check fell due a day before the finding.
    const later = finding("2026-03-03T11:50:00Z", 30);
    expect(runningClocksOf(facts({ findings: [later] })).map((clock) => clock.kind)).toEqual([
      "critical-notification",
      "impedance-check",
    ]);
  });

  it("gives a cancelled finding no clock at all, even past its due time", () => {
    const cancelled = finding("2026-03-01T10:00:00Z", 30, { cancelled: true });
    expect(findingClocks(clocksOfCase(facts({ findings: [cancelled] }), now, settings))).toEqual([]);
    expect(runningClocksOf(facts({ findings: [cancelled] })).map((clock) => clock.kind)).toEqual(["impedance-check"]);
  });

  it("lists every open finding's clock but keeps only the earliest due for the board, the next taking its place", () => {
    const first = finding("2026-03-01T11:40:00Z", 15);
    const second = finding("2026-03-01T11:30:00Z", 60);
    const listed = findingClocks(clocksOfCase(facts({ findings: [second, first] }), now, settings));
    expect(listed.map((clock) => [clock.dueAt, clock.state])).toEqual([
      ["2026-03-01T11:55:00.000Z", "overdue"],
      ["2026-03-01T12:30:00.000Z", "ok"],
    ]);

    const kept = runningClocksOf(facts({ findings: [second, first] }));
    expect(kept.filter((clock) => clock.kind === "critical-notification").map((clock) => clock.dueAt)).toEqual([
      new Date("2026-03-01T11:55:00Z"),
    ]);

    const firstAcknowledged = { ...first, acknowledgedAt: new Date("2026-03-01T11:58:00Z") };
    const next = runningClocksOf(facts({ findings: [second, firstAcknowledged] }));
    expect(next.filter((clock) => clock.kind === "critical-notification").map((clock) => clock.dueAt)).toEqual([
      new Date("2026-03-01T12:30:00Z"),
    ]);
  });

  it("keeps the window of the revision pinned when the finding was raised, whatever the case's promises say now", () => {
    // Raised under a pinned revision promising 15 minutes; the case's promises since read otherwise.
    const pinned = finding("2026-03-01T11:50:00Z", 15);
    const clocks = clocksOfCase(
      facts({
        findings: [pinned],
        promises: { impedanceCheckIntervalHours: 8, reviewTurnaroundHours: 12, statAcknowledgeMinutes: 30 },
      }),
      now,
      settings,
    );
    expect(clockOf(clocks, "critical-notification")).toMatchObject({
      windowMinutes: 15,
      dueAt: "2026-03-01T12:05:00.000Z",
      dueSoonAt: "2026-03-01T12:01:15.000Z",
    });
  });

  it("runs in any stage until acknowledged: a finding still open when the case reached review is still owed", () => {
    const clocks = clocksOfCase(
      facts({
        stage: "reviewed",
        recordingEndedAt: new Date("2026-03-01T10:00:00Z"),
        findings: [finding("2026-03-01T09:00:00Z", 30)],
      }),
      now,
      settings,
    );
    expect(clockOf(clocks, "critical-notification").state).toBe("overdue");
  });
});
