import { describe, expect, it } from "vitest";
import {
  capFor,
  currentLoad,
  describePeriodIssue,
  durationMinutes,
  monitoringPeriodIssues,
  reviewCheckState,
} from "./time-log-rules.js";

const at = (hour: number) => new Date(Date.UTC(2026, 0, 1, hour));
const now = at(12);

describe("durationMinutes", () => {
  it("counts whole minutes, to now while running, never below zero", () => {
    expect(durationMinutes({ start: at(1), end: at(2) }, now)).toBe(60);
    expect(durationMinutes({ start: at(11), end: null }, now)).toBe(60);
    expect(durationMinutes({ start: new Date(now.getTime() + 60_000), end: null }, now)).toBe(0);
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

describe("monitoringPeriodIssues", () => {
  const recording = { recordingStartedAt: at(8), recordingEndedAt: at(12), openedAt: at(7) };

  it("allows hook-up up to 6 hours before the recording start and disconnecting up to 2 hours after its end", () => {
    expect(monitoringPeriodIssues({ start: at(2), end: at(14) }, recording)).toEqual([]);
    expect(monitoringPeriodIssues({ start: at(9), end: null }, recording)).toEqual([]);
  });

  it("names the start of a log that begins earlier, and the end of one that runs later", () => {
    expect(monitoringPeriodIssues({ start: new Date(at(2).getTime() - 1), end: at(3) }, recording)).toEqual([
      { field: "startedAt", edge: "recording-start", at: at(8) },
    ]);
    expect(monitoringPeriodIssues({ start: at(11), end: new Date(at(14).getTime() + 1) }, recording)).toEqual([
      { field: "endedAt", edge: "recording-end", at: at(12) },
    ]);
    expect(monitoringPeriodIssues({ start: at(15), end: null }, recording)).toEqual([
      { field: "startedAt", edge: "recording-end", at: at(12) },
    ]);
  });

  it("bounds logs by the opening of the case until the recording start is known, and leaves the end open", () => {
    const intake = { recordingStartedAt: null, recordingEndedAt: null, openedAt: at(10) };
    expect(monitoringPeriodIssues({ start: at(4), end: at(5) }, intake)).toEqual([]);
    const [issue] = monitoringPeriodIssues({ start: at(3), end: at(23) }, intake);
    expect(issue).toEqual({ field: "startedAt", edge: "case-opened", at: at(10) });
    expect(describePeriodIssue(issue as NonNullable<typeof issue>, (instant) => instant.toISOString())).toBe(
      "is more than 6 hours before the case was opened (2026-01-01T10:00:00.000Z) and the recording start is not set",
    );
  });
});
