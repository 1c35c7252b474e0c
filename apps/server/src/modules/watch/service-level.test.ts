import type { ServiceLevelPeople, ServiceLevelReport } from "@vigil/contract";
import { sql } from "drizzle-orm";
import { Temporal } from "temporal-polyfill";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  caseIn,
  createClient,
  openCase,
  setRecordingPeriod,
  type Team,
  teamFor,
  unknownId,
} from "../../testing/kits/cases-kit.js";
import { insertFindingRow } from "../../testing/kits/finding-rows-kit.js";
import { createItem, sampleEvent, sampleImpedance, sampleTimeLog } from "../../testing/kits/records-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { monthWindowIn } from "./service-level-rules.js";

const hour = 3_600_000;
const minute = 60_000;
const zone = "America/Chicago";

let harness: TestApp;
let team: Team;
let clientId: string;
/** Last month in the client's zone: every clock of the history below is decided by now. */
let month: string;
let t0: Date;
const caseNumbers: Record<string, string> = {};

const plus = (ms: number) => new Date(t0.getTime() + ms);

async function exec(query: ReturnType<typeof sql>) {
  await harness.database.db.execute(query);
}

/** A completed stage move at a chosen time, as the workflow would have written it. */
/** The case was opened two hours before t0: the report reads only cases opened before the month's end. */
async function openedBefore(caseId: string) {
  await exec(sql`update cases set created_at = ${plus(-2 * hour).toISOString()} where id = ${caseId}`);
}

async function moved(caseId: string, ruleId: string, from: string, to: string, at: Date) {
  await exec(sql`insert into case_transitions (case_id, rule_id, from_stage, to_stage, status, requested_by_username, decided_at, created_at)
    values (${caseId}, ${ruleId}, ${from}, ${to}, 'completed', 'slr-coordinator', ${at.toISOString()}, ${at.toISOString()})`);
}

/** A case recorded from t0 to `hoursRecorded`, its technologist assigned an hour before, handed over at t0 + 31 h. */
async function recordedCase(
  hoursRecorded: number,
  checksAfterHours: number[],
  reviewedAfterHours: number,
  whileRecording: (caseId: string) => Promise<void> = async () => {},
) {
  const subject = await caseIn(harness, team, clientId, "monitoring");
  caseNumbers[subject.id] = subject.caseNumber;
  await openedBefore(subject.id);
  await exec(sql`update case_assignments set started_at = ${plus(-hour).toISOString()} where case_id = ${subject.id}`);
  await exec(sql`delete from case_transitions where case_id = ${subject.id}`);
  await moved(subject.id, "start-monitoring", "intake", "monitoring", t0);
  await setRecordingPeriod(harness, subject.id, t0, null);
  for (const after of checksAfterHours) {
    await createItem(
      team.technologist,
      "impedance",
      subject.id,
      sampleImpedance({ checkedAt: plus(after * hour).toISOString() }),
    );
  }
  await whileRecording(subject.id);
  await setRecordingPeriod(harness, subject.id, t0, plus(hoursRecorded * hour));
  await moved(subject.id, "end-monitoring", "monitoring", "preview", plus(31 * hour));
  await moved(subject.id, "sign-off", "preview", "reviewed", plus((31 + reviewedAfterHours) * hour));
  await exec(sql`update cases set stage = 'reviewed' where id = ${subject.id}`);
  return subject;
}

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "slr");
  // sampleProtocol: impedance checks every 12 hours, review within 8 hours; STAT taken within 60 minutes.
  clientId = (await createClient(team.coordinator)).id;
  month = Temporal.Now.plainDateISO(zone).toPlainYearMonth().subtract({ months: 1 }).toString();
  t0 = new Date(monthWindowIn(month, zone).start.getTime() + 2 * 24 * hour);

  // Case A: checks at 10 h (kept) and 25 h (due at 22 h: 3 h late); reviewed 4 h after the hand-over (kept).
  await recordedCase(30, [10, 25], 4, async (caseId) => {
    // An intermittent log of 3 h with a review check after 1 h (kept); the next was due as the log ended (dropped).
    const log = sampleTimeLog({
      mode: "intermittent",
      startedAt: plus(hour).toISOString(),
      endedAt: plus(3 * hour).toISOString(),
    });
    await createItem(team.technologist, "time-log", caseId, log);
    const check = sampleEvent({ type: "review-check", occurredAt: plus(2 * hour).toISOString() });
    await createItem(team.technologist, "event", caseId, check);
  });
  // Case B: recorded 6 h without a check (ended before due: nothing owed); reviewed 10 h after the hand-over (2 h late).
  await recordedCase(6, [], 10);

  // Case C: STAT from t0, taken by the reviewer after 30 minutes.
  const c = await openCase(team.coordinator, clientId, { priority: "stat" });
  caseNumbers[c.id] = c.caseNumber;
  await openedBefore(c.id);
  const taken = await team.reviewer("POST", `/cases/${c.id}/actions`, { body: { action: "acknowledge" } });
  expect(taken.statusCode, taken.body).toBe(200);
  await exec(
    sql`update case_actions set created_at = ${t0.toISOString()} where case_id = ${c.id} and action = 'create'`,
  );
  await exec(
    sql`update case_actions set created_at = ${plus(30 * minute).toISOString()} where case_id = ${c.id} and action = 'acknowledge'`,
  );
  await exec(sql`update cases set acknowledged_at = ${plus(30 * minute).toISOString()} where id = ${c.id}`);

  // Case D: four critical findings raised by the reviewer, each with a 30-minute window. Acknowledged after 10
  // minutes (its first message 2 minutes after raising), after 45 (15 late), never, and one cancelled after its due
  // time (nothing owed).
  const d = await openCase(team.coordinator, clientId);
  caseNumbers[d.id] = d.caseNumber;
  await openedBefore(d.id);
  const raisedBy = { sub: team.reviewer.sub, username: team.reviewer.username };
  const db = harness.database.db;
  await insertFindingRow(db, d.id, {
    raisedAt: plus(hour),
    windowMinutes: 30,
    raisedBy,
    onsetAt: plus(hour - 12 * minute),
    firstNotifiedAt: plus(hour + 2 * minute),
    acknowledgedAt: plus(hour + 10 * minute),
  });
  await insertFindingRow(db, d.id, {
    raisedAt: plus(2 * hour),
    windowMinutes: 30,
    raisedBy,
    kind: "electrographic-status-epilepticus",
    onsetAt: plus(2 * hour - 40 * minute),
    acknowledgedAt: plus(2 * hour + 45 * minute),
  });
  await insertFindingRow(db, d.id, {
    raisedAt: plus(3 * hour),
    windowMinutes: 30,
    raisedBy,
    onsetAt: plus(3 * hour - 5 * minute),
  });
  await insertFindingRow(db, d.id, {
    raisedAt: plus(4 * hour),
    windowMinutes: 30,
    raisedBy,
    cancelledAt: plus(5 * hour),
  });

  // Another client's late case is not this client's figure.
  const other = (await createClient(team.coordinator)).id;
  const late = await caseIn(harness, team, other, "monitoring");
  await openedBefore(late.id);
  await exec(sql`delete from case_transitions where case_id = ${late.id}`);
  await moved(late.id, "end-monitoring", "monitoring", "preview", plus(hour));
});
afterAll(() => harness.close());

async function report(caller = team.coordinator, path = `${clientId}/${month}`): Promise<ServiceLevelReport> {
  const response = await caller("GET", `/api/reporting/service-levels/${path}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

/** The never-acknowledged finding (due t0 + 3 h 30) is late until the report's time of reading, in whole seconds up. */
function neverAcknowledgedLate(data: ServiceLevelReport): number {
  return Math.ceil((Date.parse(data.asOf) - plus(3 * hour + 30 * minute).getTime()) / 1000);
}

describe("the monthly service-level report", () => {
  it("counts each promise kept and missed in the month it fell due, with percentiles of time taken and lateness", async () => {
    const data = await report();
    expect(data).toMatchObject({ clientId, month, timeZone: zone });
    expect(data.kinds).toEqual([
      {
        kind: "stat-acknowledgement",
        kept: 1,
        missed: 0,
        pending: 0,
        takenSeconds: { p50: 1800, p90: 1800, max: 1800 },
        lateSeconds: null,
      },
      {
        kind: "impedance-check",
        kept: 1,
        missed: 1,
        pending: 0,
        takenSeconds: { p50: 36000, p90: 54000, max: 54000 },
        lateSeconds: { p50: 10800, p90: 10800, max: 10800 },
      },
      {
        kind: "intermittent-review",
        kept: 1,
        missed: 0,
        pending: 0,
        takenSeconds: { p50: 3600, p90: 3600, max: 3600 },
        lateSeconds: null,
      },
      {
        kind: "review-turnaround",
        kept: 1,
        missed: 1,
        pending: 0,
        takenSeconds: { p50: 14400, p90: 36000, max: 36000 },
        lateSeconds: { p50: 7200, p90: 7200, max: 7200 },
      },
      {
        kind: "critical-notification",
        kept: 1,
        missed: 2,
        pending: 0,
        takenSeconds: { p50: 600, p90: 2700, max: 2700 },
        lateSeconds: { p50: 900, p90: neverAcknowledgedLate(data), max: neverAcknowledgedLate(data) },
      },
    ]);
    expect(data.breaches.map((breach) => [breach.kind, breach.dueAt, breach.end, breach.lateSeconds])).toEqual([
      ["critical-notification", plus(2 * hour + 30 * minute).toISOString(), "stopped", 900],
      ["critical-notification", plus(3 * hour + 30 * minute).toISOString(), "running", neverAcknowledgedLate(data)],
      ["impedance-check", plus(22 * hour).toISOString(), "stopped", 10800],
      ["review-turnaround", plus(39 * hour).toISOString(), "stopped", 7200],
    ]);
    expect(data.breaches.every((breach) => breach.caseNumber === caseNumbers[breach.caseId])).toBe(true);
  });

  it("carries the 12 months ending with the one asked for, this month's counts in the last", async () => {
    const data = await report();
    expect(data.series.map((entry) => entry.month)).toHaveLength(12);
    expect(data.series.at(-1)).toEqual({
      month,
      kinds: [
        { kind: "stat-acknowledgement", kept: 1, missed: 0 },
        { kind: "impedance-check", kept: 1, missed: 1 },
        { kind: "intermittent-review", kept: 1, missed: 0 },
        { kind: "review-turnaround", kept: 1, missed: 1 },
        { kind: "critical-notification", kept: 1, missed: 2 },
      ],
    });
    expect(data.series.slice(0, 11).every((entry) => entry.kinds.every((kind) => kind.kept + kind.missed === 0))).toBe(
      true,
    );
  });

  it("gives the month's critical findings: each window's end, the times of the loop, and the missed windows by case", async () => {
    const data = await report();
    expect(data.criticalFindings).toEqual({
      count: 4,
      acknowledgedInTime: 1,
      acknowledgedLate: 1,
      notAcknowledged: 1,
      pending: 0,
      cancelled: 1,
      acknowledgementSeconds: { p50: 600, p90: 2700, max: 2700 },
      // Onset → raised: 12, 40 and 5 minutes (the cancelled finding is not counted).
      onsetToRaisedSecondsP50: 720,
      // Only the first finding's message went out (2 minutes after raising).
      raisedToNotifiedSecondsP50: 120,
      missed: [
        {
          findingId: expect.any(String),
          caseId: expect.any(String),
          caseNumber: expect.any(String),
          kind: "electrographic-status-epilepticus",
          raisedAt: plus(2 * hour).toISOString(),
          dueAt: plus(2 * hour + 30 * minute).toISOString(),
          acknowledgedAt: plus(2 * hour + 45 * minute).toISOString(),
          lateSeconds: 900,
        },
        {
          findingId: expect.any(String),
          caseId: expect.any(String),
          caseNumber: expect.any(String),
          kind: "electrographic-seizure",
          raisedAt: plus(3 * hour).toISOString(),
          dueAt: plus(3 * hour + 30 * minute).toISOString(),
          acknowledgedAt: null,
          lateSeconds: neverAcknowledgedLate(data),
        },
      ],
    });
    expect(data.criticalFindings.missed.every((entry) => entry.caseNumber === caseNumbers[entry.caseId])).toBe(true);
  });

  it("gives administrators each technologist's and reviewer's figures, the coordinators' where nobody was assigned", async () => {
    const response = await team.admin("GET", `/api/reporting/service-levels/${clientId}/${month}/people`);
    expect(response.statusCode, response.body).toBe(200);
    const people: ServiceLevelPeople = response.json().data;
    expect(
      people.people.map((entry) => [entry.role, entry.person?.username ?? null, entry.kept, entry.missed]),
    ).toEqual([
      ["reviewer", null, 1, 1],
      ["reviewer", team.reviewer.username, 1, 0],
      ["technologist", team.technologist.username, 2, 1],
    ]);
  });

  it("refuses the per-person figures to everyone but administrators", async () => {
    for (const caller of [team.coordinator, team.billing, team.reviewer]) {
      const response = await caller("GET", `/api/reporting/service-levels/${clientId}/${month}/people`);
      expect(response.statusCode).toBe(403);
    }
    const billing = await team.billing("GET", `/api/reporting/service-levels/${clientId}/${month}`);
    expect(billing.statusCode).toBe(200);
    const technologist = await team.technologist("GET", `/api/reporting/service-levels/${clientId}/${month}`);
    expect(technologist.statusCode).toBe(403);
  });

  it("answers 400 naming the month for a month that is not one, and 404 for an unknown client", async () => {
    for (const bad of ["2026-13", "1899-12", "2201-01", "2026-1"]) {
      const response = await team.coordinator("GET", `/api/reporting/service-levels/${clientId}/${bad}`);
      expect(response.statusCode, bad).toBe(400);
      expect(response.json().error.details.issues[0].path).toBe("params.month");
    }
    const missing = await team.coordinator("GET", `/api/reporting/service-levels/${unknownId}/${month}`);
    expect(missing.statusCode).toBe(404);
  });
});
