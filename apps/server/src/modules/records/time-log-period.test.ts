import type { Case, TimeLogItem } from "@vigil/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  caseIn,
  createClient,
  openCase,
  setRecordingPeriod,
  type Team,
  teamFor,
} from "../../testing/kits/cases-kit.js";
import { collectionOf, createItem, itemPath, sampleTimeLog } from "../../testing/kits/records-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

/*
 * Billable time outside the case's monitoring period is refused when it is written: a log dated months before the
 * recording would otherwise be billed in those months. Hook-up before the recording start (6 h) and disconnecting
 * after its end (2 h) are within the margins.
 */

let harness: TestApp;
let team: Team;
let clientId: string;

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "period-logs");
  clientId = (await createClient(team.coordinator)).id;
});
afterAll(() => harness.close());

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
const iso = (hours: number) => hoursAgo(hours).toISOString();

/** A case monitored from 48 hours ago until 24 hours ago (in preview, where logs may still be corrected). */
async function recordedCase(): Promise<Case> {
  const subject = await caseIn(harness, team, clientId, "preview");
  await setRecordingPeriod(harness, subject.id, hoursAgo(48), hoursAgo(24));
  return subject;
}

async function write(subject: Case, startedAt: string, endedAt: string | null, billable = true) {
  return team.technologist("POST", collectionOf("time-log", subject.id), {
    body: sampleTimeLog({ startedAt, endedAt, billable }),
  });
}

function issuesOf(response: { json: () => { error: { details: { issues: { path: string; message: string }[] } } } }) {
  return response.json().error.details.issues;
}

describe("billable time and the monitoring period", () => {
  it("refuses a billable log months before the recording started, naming its start, times in the client's zone", async () => {
    const subject = await recordedCase();
    const response = await write(subject, iso(24 * 90), iso(24 * 90 - 3));
    expect(response.statusCode).toBe(400);
    const [issue, ...others] = issuesOf(response);
    expect(others).toEqual([]);
    expect(issue?.path).toBe("body.startedAt");
    expect(issue?.message).toMatch(/^is more than 6 hours before the recording started \(.+\(America\/Chicago\)\)/);
    expect(issue?.message).toContain("if the recording began earlier, set its start first");
    expect(response.json().error.message).not.toMatch(/\d{2}:\d{2}:\d{2}(\.\d+)?Z/);
  });

  it("accepts hook-up up to 6 hours before the recording start and disconnecting up to 2 hours after its end", async () => {
    const subject = await recordedCase();
    await createItem(
      team.technologist,
      "time-log",
      subject.id,
      sampleTimeLog({ startedAt: iso(53), endedAt: iso(48) }),
    );
    await createItem(
      team.technologist,
      "time-log",
      subject.id,
      sampleTimeLog({ startedAt: iso(25), endedAt: iso(23) }),
    );
    expect((await write(subject, iso(55), iso(54))).statusCode).toBe(400);
  });

  it("refuses a log ending, or starting, more than 2 hours after the recording ended", async () => {
    const subject = await recordedCase();
    const late = await write(subject, iso(25), iso(20));
    expect(late.statusCode).toBe(400);
    expect(issuesOf(late).map((issue) => issue.path)).toEqual(["body.endedAt"]);
    expect(issuesOf(late)[0]?.message).toMatch(/^is more than 2 hours after the recording ended/);
    const after = await write(subject, iso(10), null);
    expect(after.statusCode).toBe(400);
    expect(issuesOf(after).map((issue) => issue.path)).toEqual(["body.startedAt"]);
  });

  it("keeps time that is not billed out of it", async () => {
    const subject = await recordedCase();
    expect((await write(subject, iso(24 * 90), iso(24 * 90 - 1), false)).statusCode).toBe(201);
  });

  it("refuses an edit that moves a log out of the period, and a restore of one the period no longer covers", async () => {
    const subject = await recordedCase();
    const log = await createItem<TimeLogItem>(
      team.technologist,
      "time-log",
      subject.id,
      sampleTimeLog({ startedAt: iso(40), endedAt: iso(39) }),
    );
    const path = itemPath("time-log", subject.id, log.id);
    const moved = await team.technologist("POST", path, {
      body: {
        change: "edit",
        baseRevision: 1,
        data: { ...log.data, startedAt: iso(24 * 30), endedAt: iso(24 * 30 - 1) },
      },
    });
    expect(moved.statusCode).toBe(400);
    expect(issuesOf(moved).map((issue) => issue.path)).toEqual(["body.data.startedAt"]);

    const deleted = await team.technologist("POST", path, {
      body: { change: "delete", baseRevision: 1, reason: "Logged on the wrong case" },
    });
    expect(deleted.statusCode, deleted.body).toBe(201);
    // With the log deleted, the recording start may move past it.
    await setRecordingPeriod(harness, subject.id, hoursAgo(30), hoursAgo(24));
    const restored = await team.technologist("POST", path, {
      body: { change: "restore", baseRevision: 2, reason: "It was this case after all" },
    });
    expect(restored.statusCode).toBe(400);
    expect(issuesOf(restored).map((issue) => issue.path)).toEqual(["data.startedAt"]);
  });

  it("bounds logs of a case in intake by when it was opened, until its recording start is set", async () => {
    const subject = await openCase(team.coordinator, clientId);
    const early = await write(subject, iso(24 * 7), iso(24 * 7 - 1));
    expect(early.statusCode).toBe(400);
    expect(issuesOf(early)[0]?.message).toMatch(/before the case was opened .* and the recording start is not set/);
    expect((await write(subject, iso(2), iso(1))).statusCode).toBe(201);

    const set = await team.technologist("PATCH", `/cases/${subject.id}`, {
      body: { recordingStartedAt: iso(24 * 8) },
      ifMatch: subject.version,
    });
    expect(set.statusCode, set.body).toBe(200);
    expect((await write(subject, iso(24 * 7), iso(24 * 7 - 1))).statusCode).toBe(201);
  });
});
