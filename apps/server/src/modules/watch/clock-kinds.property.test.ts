import type { Author, CaseStage, ServiceClock } from "@vigil/contract";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type CaseClockFacts, clocksOfCase } from "./clock-rules.js";
import { type CaseHistory, type ClockInstance, clockInstancesOf } from "./service-level-rules.js";

/**
 * The live board and the report's replay feed the same rule of each kind (`clock-kinds.ts`) different inputs: the
 * case's latest facts, and its whole history. A generated case lives through stage moves, records, STAT periods and
 * critical findings, across a daylight-saving change; after every step the live rules, given the facts the database
 * would hold then, must show the same clocks the replay of the history so far gives.
 */

const minute = 60_000;
const people: Author[] = [
  { sub: "t-1", username: "tess", name: "Tess Tech" },
  { sub: "t-2", username: "theo", name: "Theo Tech" },
  { sub: "r-1", username: "rita", name: "Rita Reviewer" },
  { sub: "r-2", username: "rory", name: "Rory Reviewer" },
];
const settings = { dueSoonShare: 0.25 };

const actions = [
  "start-recording",
  "impedance-check",
  "review-check",
  "start-log",
  "end-log",
  "assign-technologist",
  "assign-reviewer",
  "end-recording",
  "to-preview",
  "send-back",
  "review",
  "close",
  "make-stat",
  "make-routine",
  "acknowledge",
  "raise-finding",
  "acknowledge-finding",
  "cancel-finding",
] as const;
type Action = (typeof actions)[number];
type Step = { action: Action; gapMinutes: number; backdateMinutes: number; pick: number };

/** One simulated case: its history as the report reads it, and its facts as the board's statement reads them. */
class SimulatedCase {
  stage: CaseStage = "intake";
  readonly history: CaseHistory;
  readonly facts: CaseClockFacts;

  constructor(promises: CaseClockFacts["promises"], stat: boolean, createdAt: Date) {
    this.history = {
      caseId: "case-1",
      caseNumber: "CM-2026-000001",
      promises,
      transitions: [],
      recording: { startedAt: null, endedAt: null },
      impedanceChecks: [],
      intermittentLogs: [],
      reviewChecks: [],
      statPeriods: stat ? [{ from: createdAt, to: null }] : [],
      acknowledgements: [],
      technologistAssignments: [],
      reviewerChanges: [],
      currentReviewer: null,
      findings: [],
    };
    this.facts = {
      caseId: "case-1",
      stage: "intake",
      priority: stat ? "stat" : "routine",
      statSince: stat ? createdAt : null,
      acknowledgedAt: null,
      recordingStartedAt: null,
      recordingEndedAt: null,
      previewSince: null,
      reviewedAt: null,
      lastImpedanceCheckAt: null,
      intermittentLog: null,
      lastReviewCheckAt: null,
      technologist: null,
      reviewer: null,
      promises,
      findings: [],
    };
  }

  private move(at: Date, to: CaseStage) {
    this.history.transitions.push({ at, from: this.stage, to });
    this.stage = to;
    this.facts.stage = to;
    if (to === "preview") {
      this.facts.previewSince = at;
      this.facts.reviewedAt = null;
    }
    if (to === "reviewed" && !this.facts.reviewedAt) this.facts.reviewedAt = at;
  }

  private latest(current: Date | null, at: Date): Date {
    return current && current > at ? current : at;
  }

  /** Applies a step when the workflow allows it now; false when it does not (the step is skipped). */
  apply(step: Step, at: Date): boolean {
    const recorded = new Date(at.getTime() - step.backdateMinutes * minute);
    const person = people[step.pick % people.length] as Author;
    const recording = this.stage === "monitoring" && this.facts.recordingStartedAt && !this.facts.recordingEndedAt;
    const openFindings = this.history.findings.filter((f) => !f.acknowledgedAt && !f.cancelledAt);
    const finding = openFindings[step.pick % Math.max(1, openFindings.length)];
    switch (step.action) {
      case "start-recording":
        if (this.stage !== "intake") return false;
        this.move(at, "monitoring");
        this.history.recording.startedAt = at;
        this.facts.recordingStartedAt = at;
        return true;
      case "impedance-check":
        if (!recording) return false;
        this.history.impedanceChecks.push(recorded);
        this.facts.lastImpedanceCheckAt = this.latest(this.facts.lastImpedanceCheckAt, recorded);
        return true;
      case "review-check":
        this.history.reviewChecks.push(recorded);
        this.facts.lastReviewCheckAt = this.latest(this.facts.lastReviewCheckAt, recorded);
        return true;
      case "start-log":
        if (!recording || this.facts.intermittentLog) return false;
        this.history.intermittentLogs.push({ startedAt: at, endedAt: null, technologist: person });
        this.facts.intermittentLog = { startedAt: at, technologist: person };
        return true;
      case "end-log": {
        const log = this.history.intermittentLogs.find((entry) => entry.endedAt === null);
        if (!log) return false;
        log.endedAt = at;
        this.facts.intermittentLog = null;
        return true;
      }
      case "assign-technologist": {
        const current = this.history.technologistAssignments.find((entry) => entry.endedAt === null);
        if (current) current.endedAt = at;
        this.history.technologistAssignments.push({ startedAt: at, endedAt: null, technologist: person });
        this.facts.technologist = person;
        return true;
      }
      case "assign-reviewer":
        this.history.reviewerChanges.push({ at, reviewer: person });
        this.history.currentReviewer = person;
        this.facts.reviewer = person;
        return true;
      case "end-recording":
        // A running intermittent log is ended first: its clock runs only while recording.
        if (!recording || this.facts.intermittentLog) return false;
        this.history.recording.endedAt = at;
        this.facts.recordingEndedAt = at;
        return true;
      case "to-preview":
        if (this.stage !== "monitoring" || !this.facts.recordingEndedAt) return false;
        this.move(at, "preview");
        return true;
      case "send-back":
        if (this.stage !== "preview") return false;
        this.move(at, "monitoring");
        return true;
      case "review":
        // The workflow's `stat-acknowledged` check: a STAT case is reviewed only once taken.
        if (this.stage !== "preview" || (this.facts.priority === "stat" && !this.facts.acknowledgedAt)) return false;
        this.move(at, "reviewed");
        return true;
      case "close":
        if (this.stage !== "reviewed") return false;
        this.move(at, "closed");
        return true;
      case "make-stat":
        if (this.facts.priority === "stat" || this.stage === "closed") return false;
        this.history.statPeriods.push({ from: at, to: null });
        this.facts.priority = "stat";
        this.facts.statSince = at;
        this.facts.acknowledgedAt = null;
        return true;
      case "make-routine": {
        const period = this.history.statPeriods.find((entry) => entry.to === null);
        if (!period) return false;
        period.to = at;
        this.facts.priority = "routine";
        return true;
      }
      case "acknowledge":
        // The workflow's `before-review`, `stat-priority` and `not-acknowledged` checks.
        if (this.facts.priority !== "stat" || this.facts.acknowledgedAt) return false;
        if (this.stage === "reviewed" || this.stage === "closed") return false;
        this.history.acknowledgements.push(at);
        this.facts.acknowledgedAt = at;
        return true;
      case "raise-finding": {
        const windowMinutes = 15 + (step.pick % 4) * 15;
        const dueAt = new Date(at.getTime() + windowMinutes * minute);
        const base = { raisedAt: at, dueAt, windowMinutes, acknowledgedAt: null, raisedBy: person };
        this.history.findings.push({
          ...base,
          id: `f-${this.history.findings.length}`,
          kind: "electrographic-seizure",
          onsetAt: recorded,
          firstNotifiedAt: null,
          cancelledAt: null,
        });
        this.facts.findings.push({ ...base, cancelled: false });
        return true;
      }
      case "acknowledge-finding":
      case "cancel-finding": {
        if (!finding) return false;
        const index = this.history.findings.indexOf(finding);
        const facts = this.facts.findings[index];
        if (!facts) return false;
        if (step.action === "acknowledge-finding") {
          finding.acknowledgedAt = at;
          facts.acknowledgedAt = at;
        } else {
          finding.cancelledAt = at;
          facts.cancelled = true;
        }
        return true;
      }
    }
  }
}

function ownerText(owner: ServiceClock["owner"]): string {
  return owner.kind === "user" ? owner.user.username : "coordinators";
}

/** A clock as both sides can say it: kind, times, how it stands, whose. */
function liveView(clock: ServiceClock): string {
  const running = clock.state === "ok" || clock.state === "due-soon" || clock.state === "overdue";
  const standing = running
    ? clock.state === "overdue"
      ? "running late"
      : "running"
    : clock.state === "met"
      ? "kept"
      : clock.stoppedAt
        ? "done late"
        : "lapsed";
  return [clock.kind, clock.startedAt, clock.dueAt, clock.stoppedAt ?? "-", standing].join(" ");
}

function replayView(instance: ClockInstance): string {
  const standing =
    instance.outcome === "kept"
      ? "kept"
      : instance.outcome === "pending"
        ? "running"
        : instance.outcome === "dropped"
          ? "dropped"
          : instance.stoppedAt
            ? "done late"
            : instance.endedAt
              ? "lapsed"
              : "running late";
  return [
    instance.kind,
    instance.startedAt.toISOString(),
    instance.dueAt.toISOString(),
    instance.stoppedAt?.toISOString() ?? "-",
    standing,
  ].join(" ");
}

const stepArbitrary: fc.Arbitrary<Step> = fc.record({
  action: fc.constantFrom(...actions),
  gapMinutes: fc.integer({ min: 0, max: 900 }),
  backdateMinutes: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 180 })),
  pick: fc.nat(),
});

// Instants either side of a daylight-saving change (US spring forward, EU autumn back): windows are real time.
const startArbitrary = fc.constantFrom(
  new Date("2026-03-08T01:00:00-05:00"),
  new Date("2026-10-24T22:00:00+02:00"),
  new Date("2026-11-01T00:30:00-04:00"),
);

const promisesArbitrary = fc.record({
  impedanceCheckIntervalHours: fc.integer({ min: 1, max: 24 }),
  reviewTurnaroundHours: fc.integer({ min: 1, max: 48 }),
  statAcknowledgeMinutes: fc.integer({ min: 5, max: 120 }),
});

describe("clock kinds defined once", () => {
  it("replaying any history gives the clocks the live rules showed after each step", () => {
    fc.assert(
      fc.property(
        startArbitrary,
        promisesArbitrary,
        fc.boolean(),
        fc.array(stepArbitrary, { minLength: 1, maxLength: 60, size: "max" }),
        fc.integer({ min: 0, max: 3000 }),
        (createdAt, promises, stat, steps, lookAheadMinutes) => {
          const simulated = new SimulatedCase(promises, stat, createdAt);
          let now = createdAt;
          for (const step of steps) {
            now = new Date(now.getTime() + step.gapMinutes * minute);
            if (!simulated.apply(step, now)) continue;
            for (const asOf of [now, new Date(now.getTime() + lookAheadMinutes * minute)]) {
              const live = clocksOfCase(simulated.facts, asOf, settings);
              const replay = clockInstancesOf(simulated.history, asOf);
              // Every clock the board shows is one the replay ran, standing the same way, owned by the same one.
              const replayed = new Map(replay.map((instance) => [replayView(instance), instance]));
              for (const clock of live) {
                const instance = replayed.get(liveView(clock));
                expect(instance, `live ${liveView(clock)} among\n${[...replayed.keys()].join("\n")}`).toBeDefined();
                // Whose it is while not yet due; once late the report names who held it at its due time, the board
                // who holds it now (the one to chase).
                if (instance?.outcome === "pending") expect(ownerText(instance.owner)).toBe(ownerText(clock.owner));
              }
              // And every clock the replay has still running is on the board.
              const shown = new Set(live.map(liveView));
              for (const instance of replay) {
                if (instance.stoppedAt || instance.endedAt) continue;
                expect(shown.has(replayView(instance)), `replay ${replayView(instance)} not live`).toBe(true);
              }
            }
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
