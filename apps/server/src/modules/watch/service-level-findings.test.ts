import { describe, expect, it } from "vitest";
import { criticalFindingsOf } from "./service-level-findings.js";
import {
  breachesOf,
  type CaseHistory,
  clockInstancesOf,
  type FindingHistory,
  kindFiguresOf,
  monthWindowIn,
  peopleOf,
} from "./service-level-rules.js";

const minute = 60_000;
const hour = 60 * minute;
const at = (iso: string) => new Date(iso);
const plus = (date: Date, ms: number) => new Date(date.getTime() + ms);
const rita = { sub: null, username: "rita", name: "Rita Reviewer" };
const zone = "America/New_York";
const november = monthWindowIn("2026-11", zone);
const asOf = at("2026-12-15T00:00:00Z");

let findingCount = 0;
/** A finding raised at `raisedAt` with a 30-minute window, its onset 20 minutes before; open unless told. */
function finding(raisedAt: Date, overrides: Partial<FindingHistory> = {}): FindingHistory {
  findingCount += 1;
  return {
    id: `finding-${findingCount}`,
    kind: "electrographic-seizure",
    onsetAt: plus(raisedAt, -20 * minute),
    raisedAt,
    dueAt: plus(raisedAt, 30 * minute),
    windowMinutes: 30,
    firstNotifiedAt: null,
    acknowledgedAt: null,
    cancelledAt: null,
    raisedBy: rita,
    ...overrides,
  };
}

function historyOf(caseNumber: string, findings: FindingHistory[]): CaseHistory {
  return {
    caseId: `case-${caseNumber}`,
    caseNumber,
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
    findings,
  };
}

const t = at("2026-11-10T15:00:00Z");

describe("critical finding clocks in a case's history", () => {
  it("keeps an acknowledgement exactly at the due time, misses a later one and an open one past due, and owes nothing for a cancelled one", () => {
    const history = historyOf("CM-1", [
      finding(t, { acknowledgedAt: plus(t, 30 * minute) }),
      finding(plus(t, hour), { acknowledgedAt: plus(t, hour + 30 * minute + 1) }),
      finding(plus(t, 2 * hour)),
      // Cancelled after its due time: still nothing owed.
      finding(plus(t, 3 * hour), { cancelledAt: plus(t, 4 * hour) }),
      // Raised just now: not due yet.
      finding(plus(asOf, -10 * minute)),
    ]);
    const instances = clockInstancesOf(history, asOf);
    expect(instances.map((instance) => [instance.kind, instance.outcome])).toEqual([
      ["critical-notification", "kept"],
      ["critical-notification", "missed"],
      ["critical-notification", "missed"],
      ["critical-notification", "dropped"],
      ["critical-notification", "pending"],
    ]);
    expect(instances[0]?.owner).toEqual({ kind: "user", user: rita });

    const figures = kindFiguresOf(instances, november, asOf).find((entry) => entry.kind === "critical-notification");
    // Late by a millisecond is late by 1 s; the open one is late until the time of reading.
    const openLate = Math.ceil((asOf.getTime() - plus(t, 2 * hour + 30 * minute).getTime()) / 1000);
    expect(figures).toEqual({
      kind: "critical-notification",
      kept: 1,
      missed: 2,
      pending: 0,
      // The one a millisecond late took 1801 s, never the window's 1800: rounded up like its lateness.
      takenSeconds: { p50: 30 * 60, p90: 30 * 60 + 1, max: 30 * 60 + 1 },
      lateSeconds: { p50: 1, p90: openLate, max: openLate },
    });
    expect(breachesOf(instances, november, asOf).map((breach) => [breach.kind, breach.end])).toEqual([
      ["critical-notification", "stopped"],
      ["critical-notification", "running"],
    ]);
  });

  it("counts a finding's acknowledgement for the client, never against the person who raised it", () => {
    const instances = clockInstancesOf(historyOf("CM-1", [finding(t, { acknowledgedAt: plus(t, 2 * hour) })]), asOf);
    expect(peopleOf(instances, november)).toEqual([]);
  });
});

describe("the report's critical findings section", () => {
  it("counts the month's findings by outcome, with the acknowledgement percentiles and the medians where known", () => {
    const histories = [
      historyOf("CM-2", [
        // 10, 20 and 50 minutes to acknowledgement; notified 1 and 3 minutes after raising.
        finding(t, { acknowledgedAt: plus(t, 10 * minute), firstNotifiedAt: plus(t, minute) }),
        finding(plus(t, hour), {
          onsetAt: plus(t, -hour),
          acknowledgedAt: plus(t, hour + 20 * minute),
          firstNotifiedAt: plus(t, hour + 3 * minute),
        }),
        finding(plus(t, 2 * hour), { acknowledgedAt: plus(t, 2 * hour + 50 * minute) }),
      ]),
      historyOf("CM-1", [
        finding(plus(t, 3 * hour)),
        // Cancelled: counted, but neither missed nor in the durations (its onset was 5 h before).
        finding(plus(t, 4 * hour), { onsetAt: plus(t, -hour), cancelledAt: plus(t, 5 * hour) }),
      ]),
    ];
    const section = criticalFindingsOf(histories, november, asOf);
    expect(section).toMatchObject({
      count: 5,
      acknowledgedInTime: 2,
      acknowledgedLate: 1,
      notAcknowledged: 1,
      pending: 0,
      cancelled: 1,
      acknowledgementSeconds: { p50: 20 * 60, p90: 50 * 60, max: 50 * 60 },
      // Onset → raised: 20, 120, 20 and 20 minutes.
      onsetToRaisedSecondsP50: 20 * 60,
      // Raised → first notification: 1 and 3 minutes; the others sent nothing yet.
      raisedToNotifiedSecondsP50: 60,
    });
    expect(section.missed).toEqual([
      {
        findingId: expect.any(String),
        caseId: "case-CM-2",
        caseNumber: "CM-2",
        kind: "electrographic-seizure",
        raisedAt: plus(t, 2 * hour).toISOString(),
        dueAt: plus(t, 2 * hour + 30 * minute).toISOString(),
        acknowledgedAt: plus(t, 2 * hour + 50 * minute).toISOString(),
        lateSeconds: 20 * 60,
      },
      {
        findingId: expect.any(String),
        caseId: "case-CM-1",
        caseNumber: "CM-1",
        kind: "electrographic-seizure",
        raisedAt: plus(t, 3 * hour).toISOString(),
        dueAt: plus(t, 3 * hour + 30 * minute).toISOString(),
        acknowledgedAt: null,
        // Not acknowledged: late until the time of reading.
        lateSeconds: Math.ceil((asOf.getTime() - plus(t, 3 * hour + 30 * minute).getTime()) / 1000),
      },
    ]);
  });

  it("gives a late acknowledgement in seconds, so its time never reads as within the window", () => {
    // A 1-minute window acknowledged after 74.6 s: 75 s to acknowledgement, late by 15 s (in minutes both read 1).
    const raised = plus(t, 6 * hour);
    const quick = finding(raised, {
      dueAt: plus(raised, minute),
      windowMinutes: 1,
      acknowledgedAt: plus(raised, 74_600),
    });
    const section = criticalFindingsOf([historyOf("CM-5", [quick])], november, asOf);
    expect(section.acknowledgementSeconds).toEqual({ p50: 75, p90: 75, max: 75 });
    expect(section.missed.map((missed) => missed.lateSeconds)).toEqual([15]);
  });

  it("places a finding in the month its due time falls in, in the client's zone", () => {
    // Due 04:10 UTC on 1 December is 23:10 on 30 November in New York: a November finding.
    const lateNight = finding(at("2026-12-01T03:40:00Z"), { acknowledgedAt: at("2026-12-01T03:45:00Z") });
    // Raised at 23:50 on 31 October in New York, due at 00:20 on 1 November: November's, not October's.
    const early = finding(at("2026-11-01T03:50:00Z"), { acknowledgedAt: at("2026-11-01T04:00:00Z") });
    const section = criticalFindingsOf([historyOf("CM-3", [lateNight, early])], november, asOf);
    expect(section.count).toBe(2);
    const october = criticalFindingsOf([historyOf("CM-3", [early])], monthWindowIn("2026-10", zone), asOf);
    expect(october.count).toBe(0);
  });

  it("answers zeros and nulls for a month without findings", () => {
    expect(criticalFindingsOf([historyOf("CM-4", [])], november, asOf)).toEqual({
      count: 0,
      acknowledgedInTime: 0,
      acknowledgedLate: 0,
      notAcknowledged: 0,
      pending: 0,
      cancelled: 0,
      acknowledgementSeconds: null,
      onsetToRaisedSecondsP50: null,
      raisedToNotifiedSecondsP50: null,
      missed: [],
    });
  });
});
