import type { CaseClocks, ServiceClock, WatchBoard } from "@vigil/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  caseIn,
  createClient,
  setRecordingPeriod,
  type Team,
  teamFor,
  unknownId,
} from "../../testing/kits/cases-kit.js";
import { insertFindingRow } from "../../testing/kits/finding-rows-kit.js";
import { createItem, minutesAgo, sampleEvent, sampleImpedance, sampleTimeLog } from "../../testing/kits/records-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { recordCaseChange } from "./watch-service.js";

let harness: TestApp;
let team: Team;
let clientId: string;
const hour = 3_600_000;
const minute = 60_000;

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "clocks");
  // sampleProtocol: impedance checks every 12 hours, review within 8 hours.
  clientId = (await createClient(team.coordinator)).id;
});
afterAll(() => harness.close());

async function clocksOf(caseId: string): Promise<CaseClocks> {
  const response = await team.technologist("GET", `/cases/${caseId}/clocks`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

function clockOf(clocks: CaseClocks, kind: ServiceClock["kind"]): ServiceClock | undefined {
  return clocks.clocks.find((clock) => clock.kind === kind);
}

/** A case in monitoring whose recording started `hoursAgo` and is still running. */
async function recordingCase(hoursAgo: number) {
  const subject = await caseIn(harness, team, clientId, "monitoring");
  const startedAt = new Date(Date.now() - hoursAgo * hour);
  await setRecordingPeriod(harness, subject.id, startedAt, null);
  return { subject, startedAt };
}

describe("a case's service clocks", () => {
  it("runs the impedance clock from the recording's start and restarts it with each impedance check", async () => {
    const { subject, startedAt } = await recordingCase(11);
    const before = clockOf(await clocksOf(subject.id), "impedance-check");
    expect(before).toMatchObject({
      startedAt: startedAt.toISOString(),
      dueAt: new Date(startedAt.getTime() + 12 * hour).toISOString(),
      windowMinutes: 720,
      state: "due-soon",
      owner: { kind: "user", user: { username: team.technologist.username } },
    });

    const checkedAt = minutesAgo(5);
    await createItem(team.technologist, "impedance", subject.id, sampleImpedance({ checkedAt }));
    const after = clockOf(await clocksOf(subject.id), "impedance-check");
    expect(after).toMatchObject({ startedAt: new Date(checkedAt).toISOString(), state: "ok" });
  });

  it("runs the two-hour review clock while an intermittent log runs, restarted by a review-check event", async () => {
    const { subject } = await recordingCase(4);
    expect(clockOf(await clocksOf(subject.id), "intermittent-review")).toBeUndefined();

    const logStartedAt = minutesAgo(150);
    await createItem(
      team.technologist,
      "time-log",
      subject.id,
      sampleTimeLog({ mode: "intermittent", startedAt: logStartedAt, endedAt: null }),
    );
    expect(clockOf(await clocksOf(subject.id), "intermittent-review")).toMatchObject({
      startedAt: new Date(logStartedAt).toISOString(),
      state: "overdue",
    });

    await createItem(
      team.technologist,
      "event",
      subject.id,
      sampleEvent({ type: "review-check", occurredAt: minutesAgo(1) }),
    );
    expect(clockOf(await clocksOf(subject.id), "intermittent-review")).toMatchObject({
      state: "ok",
      windowMinutes: 120,
    });
  });

  it("starts the review turnaround when the case is handed to preview, with the coordinators owning it until a reviewer is assigned", async () => {
    const subject = await caseIn(harness, team, clientId, "monitoring");
    const moved = await team.technologist("POST", `/cases/${subject.id}/transitions`, { body: { to: "preview" } });
    expect(moved.statusCode, moved.body).toBe(201);

    const clocks = await clocksOf(subject.id);
    expect(clocks.clocks.map((clock) => clock.kind)).toEqual(["review-turnaround"]);
    const review = clockOf(clocks, "review-turnaround");
    expect(review).toMatchObject({
      windowMinutes: 8 * 60,
      state: "ok",
      stoppedAt: null,
      owner: { kind: "coordinators" },
    });
    expect(Date.parse(review?.startedAt ?? "")).toBeLessThanOrEqual(Date.parse(clocks.asOf));
  });

  it("lists every critical finding's clock, running and stopped, none for a cancelled one, and boards the earliest due", async () => {
    const { subject } = await recordingCase(1);
    const raisedBy = { sub: team.reviewer.sub, username: team.reviewer.username, name: "Rita Reviewer" };
    const now = Date.now();
    // As the findings module writes them: each write ends in recordCaseChange, in its transaction.
    await harness.database.db.transaction(async (tx) => {
      const at = (minutesFromNow: number) => new Date(now + minutesFromNow * minute);
      await insertFindingRow(tx, subject.id, {
        raisedAt: at(-40),
        windowMinutes: 30,
        raisedBy,
        acknowledgedAt: at(-35),
      });
      await insertFindingRow(tx, subject.id, { raisedAt: at(-50), windowMinutes: 30, raisedBy });
      await insertFindingRow(tx, subject.id, { raisedAt: at(-5), windowMinutes: 15, raisedBy });
      await insertFindingRow(tx, subject.id, { raisedAt: at(-90), windowMinutes: 30, raisedBy, cancelledAt: at(-80) });
      await recordCaseChange(tx, { caseId: subject.id, clientId, change: "record" });
    });

    const findings = (await clocksOf(subject.id)).clocks.filter((clock) => clock.kind === "critical-notification");
    expect(findings.map((clock) => [clock.dueAt, clock.windowMinutes, clock.state, clock.stoppedAt !== null])).toEqual([
      [new Date(now - 20 * minute).toISOString(), 30, "overdue", false],
      [new Date(now - 10 * minute).toISOString(), 30, "met", true],
      [new Date(now + 10 * minute).toISOString(), 15, "ok", false],
    ]);
    expect(findings[0]?.owner).toEqual({ kind: "user", user: raisedBy });

    const response = await team.coordinator("GET", "/board?kind=critical-notification");
    expect(response.statusCode, response.body).toBe(200);
    const board: WatchBoard = response.json().data;
    expect(board.items.map((row) => [row.caseId, row.clock.dueAt, row.clock.state])).toEqual([
      [subject.id, new Date(now - 20 * minute).toISOString(), "overdue"],
    ]);
    // The case's next-due clock is the finding's, so it leads the case's one row on the whole board too.
    const whole = (await team.coordinator("GET", "/board")).json().data as WatchBoard;
    expect(whole.items.find((row) => row.caseId === subject.id)?.clock.kind).toBe("critical-notification");
  });

  it("answers 404 for a case that does not exist", async () => {
    const response = await team.technologist("GET", `/cases/${unknownId}/clocks`);
    expect(response.statusCode).toBe(404);
  });
});
