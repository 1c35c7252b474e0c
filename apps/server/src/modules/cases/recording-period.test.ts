import type { Case, CaseTimeline, TransitionResult } from "@vigil/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auditRows,
  caseIn,
  createClient,
  setRecordingPeriod,
  type Team,
  teamFor,
} from "../../testing/kits/cases-kit.js";
import { createItem, sampleTimeLog } from "../../testing/kits/records-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

let harness: TestApp;
let team: Team;
let clientId: string;

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "period");
  clientId = (await createClient(team.coordinator)).id;
});
afterAll(() => harness.close());

async function returnToMonitoring(subject: Case): Promise<Case> {
  const response = await team.reviewer("POST", `/cases/${subject.id}/transitions`, {
    body: { to: "monitoring", reason: "Electrode artefact; the recording continues" },
  });
  expect(response.statusCode, response.body).toBe(201);
  return (response.json().data as TransitionResult).case;
}

describe("returning a case to monitoring", () => {
  it("reopens the recording period, so ending monitoring again waits for a new end time", async () => {
    const subject = await caseIn(harness, team, clientId, "preview");
    expect(subject.recordingEndedAt).not.toBeNull();

    const returned = await returnToMonitoring(subject);
    expect(returned).toMatchObject({ stage: "monitoring", recordingEndedAt: null });
    expect(returned.recordingStartedAt).toBe(subject.recordingStartedAt);
    const asTechnologist: Case = (await team.technologist("GET", `/cases/${subject.id}`)).json().data;
    expect(asTechnologist.allowedTransitions).toEqual([
      expect.objectContaining({
        ruleId: "end-monitoring",
        allowed: false,
        failedChecks: [expect.objectContaining({ check: "recording-ended" })],
      }),
    ]);

    const tooSoon = await team.technologist("POST", `/cases/${subject.id}/transitions`, { body: { to: "preview" } });
    expect(tooSoon.statusCode).toBe(409);
    expect(tooSoon.json().error.details.failedChecks).toEqual(["recording-ended"]);

    const newEnd = new Date().toISOString();
    const ended = await team.technologist("PATCH", `/cases/${subject.id}`, {
      body: { recordingEndedAt: newEnd },
      ifMatch: returned.version,
    });
    expect(ended.statusCode, ended.body).toBe(200);
    const again = await team.technologist("POST", `/cases/${subject.id}/transitions`, { body: { to: "preview" } });
    expect(again.statusCode, again.body).toBe(201);
    expect((again.json().data as TransitionResult).case).toMatchObject({ stage: "preview", recordingEndedAt: newEnd });
  });

  it("keeps the old end in the case's history, right after the move that cleared it", async () => {
    const subject = await caseIn(harness, team, clientId, "preview");
    const oldEnd = subject.recordingEndedAt as string;
    await returnToMonitoring(subject);

    const timeline: CaseTimeline = (await team.coordinator("GET", `/cases/${subject.id}/timeline`)).json().data;
    const moveAt = timeline.items.findIndex(
      (entry) => entry.kind === "transition" && entry.transition.ruleId === "return-to-monitoring",
    );
    expect(moveAt).toBeGreaterThanOrEqual(0);
    expect(timeline.items[moveAt + 1]).toMatchObject({
      kind: "action",
      action: "update",
      actor: { username: team.reviewer.username },
      details: {
        changes: { recordingEndedAt: { from: oldEnd, to: null } },
        cause: "Return to monitoring",
      },
    });
    const [audit] = await auditRows(harness, "case.update", subject.id);
    expect(audit).toMatchObject({
      outcome: "success",
      details: expect.objectContaining({ changes: { recordingEndedAt: { from: oldEnd, to: null } } }),
    });
  });
});

describe("changing the recording times under billable time logs", () => {
  const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);

  async function loggedCase(): Promise<{ subject: Case; logId: string }> {
    const opened = await caseIn(harness, team, clientId, "monitoring");
    await setRecordingPeriod(harness, opened.id, hoursAgo(48));
    const log = await createItem<{ id: string }>(
      team.technologist,
      "time-log",
      opened.id,
      sampleTimeLog({ startedAt: hoursAgo(30).toISOString(), endedAt: hoursAgo(28).toISOString() }),
    );
    const subject: Case = (await team.technologist("GET", `/cases/${opened.id}`)).json().data;
    return { subject, logId: log.id };
  }

  it("refuses a start or end that would leave a billable log outside the period, naming the log", async () => {
    const { subject, logId } = await loggedCase();
    const later = await team.technologist("PATCH", `/cases/${subject.id}`, {
      body: { recordingStartedAt: hoursAgo(20).toISOString() },
      ifMatch: subject.version,
    });
    expect(later.statusCode).toBe(409);
    const error = later.json().error;
    expect(error.details.logs).toEqual([{ id: logId, technologist: team.technologist.username }]);
    expect(error.details.issues).toEqual([
      { path: "body.recordingStartedAt", message: "would leave a billable time log outside the monitoring period" },
    ]);
    expect(error.message).toMatch(/its start is more than 6 hours before the recording started .*\(America\/Chicago\)/);

    const earlyEnd = await team.technologist("PATCH", `/cases/${subject.id}`, {
      body: { recordingEndedAt: hoursAgo(40).toISOString() },
      ifMatch: subject.version,
    });
    expect(earlyEnd.statusCode).toBe(409);
    expect(earlyEnd.json().error.details.issues.map((issue: { path: string }) => issue.path)).toEqual([
      "body.recordingEndedAt",
    ]);
    const unchanged: Case = (await team.technologist("GET", `/cases/${subject.id}`)).json().data;
    expect(unchanged.version).toBe(subject.version);
  });

  it("accepts times that still cover the logs, the margins included", async () => {
    const { subject } = await loggedCase();
    const covering = await team.technologist("PATCH", `/cases/${subject.id}`, {
      body: { recordingStartedAt: hoursAgo(33).toISOString(), recordingEndedAt: hoursAgo(27).toISOString() },
      ifMatch: subject.version,
    });
    expect(covering.statusCode, covering.body).toBe(200);
  });
});
