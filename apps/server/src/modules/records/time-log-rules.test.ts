import { describe, expect, it } from "vitest";
import {
  capFor,
  currentLoad,
  durationMinutes,
  intervalsOverlap,
  peakConcurrentCases,
  reviewCheckState,
} from "./time-log-rules.js";

const at = (hour: number) => new Date(Date.UTC(2026, 0, 1, hour));
const now = at(12);

describe("intervalsOverlap", () => {
  it("treats logs as [start, end): touching logs do not overlap", () => {
    expect(intervalsOverlap({ start: at(1), end: at(2) }, { start: at(2), end: at(3) })).toBe(false);
    expect(intervalsOverlap({ start: at(1), end: at(3) }, { start: at(2), end: at(4) })).toBe(true);
  });

  it("treats a running log as open-ended", () => {
    expect(intervalsOverlap({ start: at(1), end: null }, { start: at(9), end: at(10) })).toBe(true);
    expect(intervalsOverlap({ start: at(5), end: null }, { start: at(1), end: at(5) })).toBe(false);
    expect(intervalsOverlap({ start: at(5), end: null }, { start: at(6), end: null })).toBe(true);
  });
});

describe("durationMinutes", () => {
  it("counts whole minutes, to now while running, never below zero", () => {
    expect(durationMinutes({ start: at(1), end: at(2) }, now)).toBe(60);
    expect(durationMinutes({ start: at(11), end: null }, now)).toBe(60);
    expect(durationMinutes({ start: new Date(now.getTime() + 60_000), end: null }, now)).toBe(0);
  });
});

describe("peakConcurrentCases", () => {
  it("is 1 for a log alone", () => {
    expect(peakConcurrentCases({ caseId: "a", start: at(1), end: at(2) }, [], now)).toBe(1);
  });

  it("counts distinct cases at the busiest instant, not every case met during the log", () => {
    const own = { caseId: "a", start: at(1), end: at(6) };
    const others = [
      { caseId: "b", start: at(1), end: at(2) },
      { caseId: "c", start: at(3), end: at(4) },
      { caseId: "d", start: at(3), end: null },
      // Another log of case b: still one patient.
      { caseId: "b", start: at(3), end: at(5) },
    ];
    expect(peakConcurrentCases(own, others, now)).toBe(4);
    expect(peakConcurrentCases(own, others.slice(0, 2), now)).toBe(2);
  });

  it("looks only inside the log's window, up to now while it runs", () => {
    const own = { caseId: "a", start: at(10), end: null };
    const others = [
      { caseId: "b", start: at(8), end: at(10) },
      { caseId: "c", start: at(11), end: null },
      { caseId: "d", start: at(13), end: null },
    ];
    expect(peakConcurrentCases(own, others, now)).toBe(2);
  });
});

describe("caps and loads", () => {
  it("gives unmonitored recordings no cap", () => {
    const caps = { intermittent: 12, continuous: 4 };
    expect(capFor("intermittent", caps)).toBe(12);
    expect(capFor("continuous", caps)).toBe(4);
    expect(capFor("unmonitored", caps)).toBeNull();
  });

  it("counts distinct cases per mode among running logs", () => {
    expect(
      currentLoad([
        { caseId: "a", mode: "continuous" },
        { caseId: "b", mode: "continuous" },
        { caseId: "b", mode: "continuous" },
        { caseId: "c", mode: "intermittent" },
        { caseId: "d", mode: "unmonitored" },
      ]),
    ).toEqual({ intermittent: 1, continuous: 2 });
  });
});

describe("reviewCheckState", () => {
  it("is not required without running intermittent monitoring", () => {
    expect(reviewCheckState({ runningIntermittentStartedAt: null, lastReviewCheckAt: at(9), now })).toEqual({
      required: false,
      lastAt: at(9),
      dueAt: null,
      overdue: false,
    });
  });

  it("is due 2 h after the last check, or after the monitoring started when there was none", () => {
    expect(reviewCheckState({ runningIntermittentStartedAt: at(9), lastReviewCheckAt: null, now })).toEqual({
      required: true,
      lastAt: at(9),
      dueAt: at(11),
      overdue: true,
    });
    expect(reviewCheckState({ runningIntermittentStartedAt: at(9), lastReviewCheckAt: at(11), now })).toEqual({
      required: true,
      lastAt: at(11),
      dueAt: at(13),
      overdue: false,
    });
  });
});
