import type { Case, CaseTimeline, TransitionResult } from "@vigil/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { auditRows, caseIn, createClient, type Team, teamFor } from "./cases-test-kit.js";

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
