import { describe, expect, it } from "vitest";
import {
  breachesOf,
  type CaseHistory,
  clockInstancesOf,
  kindFiguresOf,
  monthsEndingWith,
  monthWindowIn,
  peopleOf,
  percentileOf,
  seriesOf,
} from "./service-level-rules.js";

const hour = 3_600_000;
const minute = 60_000;
const at = (iso: string) => new Date(iso);
const plus = (date: Date, ms: number) => new Date(date.getTime() + ms);
const taylor = { sub: null, username: "taylor", name: "Taylor Technologist" };
const rita = { sub: null, username: "rita", name: "Rita Reviewer" };

function historyOf(overrides: Partial<CaseHistory> = {}): CaseHistory {
  return {
    caseId: "case-1",
    caseNumber: "CM-2026-000001",
    promises: { impedanceCheckIntervalHours: 12, reviewTurnaroundHours: 8, statAcknowledgeMinutes: 60 },
    transitions: [],
    recording: { startedAt: null, endedAt: null },
    impedanceChecks: [],
    intermittentLogs: [],
    reviewChecks: [],
    statPeriods: [],
    acknowledgements: [],
    technologistAssignments: [],
    reviewerChanges: [],
    currentReviewer: null,
    findings: [],
    ...overrides,
  };
}

const start = at("2026-11-02T08:00:00Z");
const asOf = at("2026-12-15T00:00:00Z");

describe("clock instances of a case's history", () => {
  it("keeps an impedance check made exactly at the due time, and restarts the clock from it", () => {
    const instances = clockInstancesOf(
      historyOf({
        recording: { startedAt: start, endedAt: plus(start, 30 * hour) },
        impedanceChecks: [plus(start, 12 * hour), plus(start, 24 * hour + minute)],
        technologistAssignments: [{ startedAt: plus(start, -hour), endedAt: null, technologist: taylor }],
      }),
      asOf,
    );
    expect(instances.map((instance) => [instance.startedAt, instance.dueAt, instance.outcome])).toEqual([
      [start, plus(start, 12 * hour), "kept"],
      [plus(start, 12 * hour), plus(start, 24 * hour), "missed"],
      // Recording ended 30 h in, before this one was due: nothing was owed any more.
      [plus(start, 24 * hour + minute), plus(start, 36 * hour + minute), "dropped"],
    ]);
    expect(instances[0]?.owner).toEqual({ kind: "user", user: taylor });
  });

  it("counts a clock still running past its due time as missed, late so far, and one not yet due as pending", () => {
    const history = historyOf({
      recording: { startedAt: at("2026-11-30T12:00:00Z"), endedAt: null },
      impedanceChecks: [at("2026-11-30T16:00:00Z")],
    });
    const window = monthWindowIn("2026-11", "America/Chicago");
    // Read a day into December: the clock due at 04:00 on Dec 1 (UTC) fell due in November in Chicago, unchecked.
    const read = at("2026-12-01T10:00:00Z");
    const instances = clockInstancesOf(history, read);
    expect(instances.at(-1)).toMatchObject({ dueAt: at("2026-12-01T04:00:00Z"), outcome: "missed", stoppedAt: null });
    expect(breachesOf(instances, window, read)).toEqual([
      expect.objectContaining({ kind: "impedance-check", end: "running", lateSeconds: 6 * 3600, stoppedAt: null }),
    ]);
    // Read before it fell due, it is pending: neither kept nor missed.
    const earlyRead = at("2026-12-01T03:00:00Z");
    const figures = kindFiguresOf(clockInstancesOf(history, earlyRead), window, earlyRead);
    expect(figures.find((entry) => entry.kind === "impedance-check")).toMatchObject({ kept: 1, missed: 0, pending: 1 });
  });

  it("starts a new review turnaround at each entry into preview and drops the one sent back to monitoring", () => {
    const firstEntry = start;
    const sentBack = plus(start, 2 * hour);
    const secondEntry = plus(start, 20 * hour);
    const reviewed = plus(secondEntry, 9 * hour);
    const instances = clockInstancesOf(
      historyOf({
        transitions: [
          { at: reviewed, from: "preview", to: "reviewed" },
          { at: firstEntry, from: "monitoring", to: "preview" },
          { at: sentBack, from: "preview", to: "monitoring" },
          { at: secondEntry, from: "monitoring", to: "preview" },
        ],
        reviewerChanges: [{ at: plus(start, -hour), reviewer: rita }],
      }),
      asOf,
    );
    expect(
      instances.map((instance) => [instance.startedAt, instance.stoppedAt, instance.endedAt, instance.outcome]),
    ).toEqual([
      [firstEntry, null, sentBack, "dropped"],
      [secondEntry, reviewed, null, "missed"],
    ]);
    const window = monthWindowIn("2026-11", "UTC");
    expect(breachesOf(instances, window, asOf)).toEqual([
      expect.objectContaining({ kind: "review-turnaround", end: "stopped", lateSeconds: 3600 }),
    ]);
    expect(kindFiguresOf(instances, window, asOf).find((entry) => entry.kind === "review-turnaround")).toMatchObject({
      kept: 0,
      missed: 1,
      takenSeconds: { p50: 9 * 3600, p90: 9 * 3600, max: 9 * 3600 },
      lateSeconds: { p50: 3600, p90: 3600, max: 3600 },
    });
  });

  it("a sent-back hand-over already past its due time is missed", () => {
    const instances = clockInstancesOf(
      historyOf({
        transitions: [
          { at: start, from: "monitoring", to: "preview" },
          { at: plus(start, 10 * hour), from: "preview", to: "monitoring" },
        ],
      }),
      asOf,
    );
    expect(instances).toEqual([expect.objectContaining({ outcome: "missed", endedAt: plus(start, 10 * hour) })]);
  });

  it("holds each case to the promises of its own pinned revision", () => {
    const handedOver = (turnaround: number) =>
      clockInstancesOf(
        historyOf({
          promises: { impedanceCheckIntervalHours: 12, reviewTurnaroundHours: turnaround, statAcknowledgeMinutes: 60 },
          transitions: [
            { at: start, from: "monitoring", to: "preview" },
            { at: plus(start, 18 * hour), from: "preview", to: "reviewed" },
          ],
        }),
        asOf,
      )[0];
    expect(handedOver(24)).toMatchObject({ dueAt: plus(start, 24 * hour), outcome: "kept" });
    expect(handedOver(12)).toMatchObject({ dueAt: plus(start, 12 * hour), outcome: "missed" });
  });

  it("counts a clock across a daylight-saving change in real hours, in the month of its local due date", () => {
    // Chicago falls back on 1 Nov 2026 at 02:00 CDT: 31 Oct 20:00 CDT + 24 h is 1 Nov 19:00 CST, in November.
    const handover = at("2026-11-01T01:00:00Z");
    const instances = clockInstancesOf(
      historyOf({
        promises: { impedanceCheckIntervalHours: 12, reviewTurnaroundHours: 24, statAcknowledgeMinutes: 60 },
        transitions: [
          { at: handover, from: "monitoring", to: "preview" },
          { at: at("2026-11-02T01:00:00Z"), from: "preview", to: "reviewed" },
        ],
      }),
      asOf,
    );
    expect(instances[0]).toMatchObject({ dueAt: at("2026-11-02T01:00:00Z"), outcome: "kept" });
    const november = monthWindowIn("2026-11", "America/Chicago");
    expect(november).toEqual({ start: at("2026-11-01T05:00:00Z"), end: at("2026-12-01T06:00:00Z") });
    // 743 hours in March (spring forward), 721 in a 30-day November that falls back.
    expect((november.end.getTime() - november.start.getTime()) / hour).toBe(30 * 24 + 1);
    const march = monthWindowIn("2026-03", "America/Chicago");
    expect((march.end.getTime() - march.start.getTime()) / hour).toBe(31 * 24 - 1);
    expect(seriesOf(instances, [{ month: "2026-11", window: november }])[0]?.kinds).toContainEqual({
      kind: "review-turnaround",
      kept: 1,
      missed: 0,
    });
    // Due 23:30 local on 31 Oct (04:30 UTC on 1 Nov) belongs to October, not November.
    const lateOctober = clockInstancesOf(
      historyOf({ transitions: [{ at: at("2026-10-31T20:30:00Z"), from: "monitoring", to: "preview" }] }),
      asOf,
    );
    expect(lateOctober[0]?.dueAt).toEqual(at("2026-11-01T04:30:00Z"));
    expect(kindFiguresOf(lateOctober, november, asOf).every((entry) => entry.missed === 0)).toBe(true);
    expect(kindFiguresOf(lateOctober, monthWindowIn("2026-10", "America/Chicago"), asOf)).toContainEqual(
      expect.objectContaining({ kind: "review-turnaround", missed: 1 }),
    );
  });

  it("owes one acknowledgement per STAT period; a STAT case reviewed untaken is missed; one made routine in time owes none", () => {
    const instances = clockInstancesOf(
      historyOf({
        statPeriods: [
          { from: start, to: plus(start, 30 * minute) },
          { from: plus(start, 2 * hour), to: plus(start, 6 * hour) },
          { from: plus(start, 10 * hour), to: null },
        ],
        acknowledgements: [plus(start, 3 * hour)],
        transitions: [{ at: plus(start, 10 * hour + 20 * minute), from: "preview", to: "reviewed" }],
      }),
      asOf,
    );
    expect(instances.map((instance) => [instance.startedAt, instance.outcome])).toEqual([
      [start, "dropped"],
      [plus(start, 2 * hour), "kept"],
      [plus(start, 10 * hour), "missed"],
    ]);
  });

  it("counts a case made STAT once reviewed as missed at once: it can no longer be taken", () => {
    const [instance] = clockInstancesOf(
      historyOf({
        statPeriods: [{ from: plus(start, 2 * hour), to: null }],
        transitions: [{ at: start, from: "preview", to: "reviewed" }],
      }),
      plus(start, 2 * hour + minute),
    );
    expect(instance).toMatchObject({ kind: "stat-acknowledgement", outcome: "missed", endedAt: plus(start, 2 * hour) });
  });

  it("runs the intermittent review from the log's start, restarted by review checks, owned by the log's technologist", () => {
    const instances = clockInstancesOf(
      historyOf({
        intermittentLogs: [{ startedAt: start, endedAt: plus(start, 5 * hour), technologist: taylor }],
        reviewChecks: [plus(start, -hour), plus(start, 2 * hour), plus(start, 4 * hour + 30 * minute)],
      }),
      asOf,
    );
    expect(instances.map((instance) => [instance.startedAt, instance.outcome])).toEqual([
      [start, "kept"],
      [plus(start, 2 * hour), "missed"],
      [plus(start, 4 * hour + 30 * minute), "dropped"],
    ]);
    expect(peopleOf(instances, monthWindowIn("2026-11", "UTC"))).toEqual([
      {
        role: "technologist",
        person: taylor,
        kinds: [
          { kind: "impedance-check", kept: 0, missed: 0 },
          { kind: "intermittent-review", kept: 1, missed: 1 },
        ],
        kept: 1,
        missed: 1,
      },
    ]);
  });
});

describe("service-level figures", () => {
  it("takes nearest-rank percentiles", () => {
    const values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(percentileOf(values, 50)).toBe(5);
    expect(percentileOf(values, 90)).toBe(9);
    expect(percentileOf([7], 90)).toBe(7);
  });

  it("lists the 12 months ending with the one asked for, across a year end", () => {
    expect(monthsEndingWith("2026-03", 12)).toEqual([
      "2025-04",
      "2025-05",
      "2025-06",
      "2025-07",
      "2025-08",
      "2025-09",
      "2025-10",
      "2025-11",
      "2025-12",
      "2026-01",
      "2026-02",
      "2026-03",
    ]);
  });
});
