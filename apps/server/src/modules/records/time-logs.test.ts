import type { Case, TimeLogItem, TimeLogList } from "@vigil/contract";
import { Temporal } from "temporal-polyfill";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Caller, callerFor } from "../../testing/kits/caller-kit.js";
import { caseIn, createClient, setRecordingPeriod, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import {
  collectionOf,
  createItem,
  itemPath,
  minutesAgo,
  sampleEvent,
  sampleTimeLog,
} from "../../testing/kits/records-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

let harness: TestApp;
let team: Team;
let clientId: string;
let technologistCount = 0;

beforeAll(async () => {
  // Small caps, so a handful of cases is enough to go over them.
  harness = await createTestApp({ TECHNOLOGIST_CAP_CONTINUOUS: "2", TECHNOLOGIST_CAP_INTERMITTENT: "3" });
  team = await teamFor(harness, "logs");
  clientId = (await createClient(team.coordinator)).id;
});
afterAll(() => harness.close());

/** A technologist of their own, so each story's logs meet no one else's. */
async function newTechnologist(): Promise<Caller> {
  technologistCount += 1;
  return callerFor(harness, `logs-tech-${technologistCount}`, ["technologist"]);
}

/**
 * An instant as refusals name it in the test client's zone, worked out with Temporal (not the server's formatter):
 * "Nov 25, 2026, 08:05 CST (America/Chicago)", the zone's name being the one in force at that instant.
 */
function chicagoText(iso: string): string {
  const wall = Temporal.Instant.from(iso).toZonedDateTimeISO("America/Chicago");
  const month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][wall.month - 1];
  const pad = (value: number) => String(value).padStart(2, "0");
  const abbreviation = wall.offset === "-05:00" ? "CDT" : "CST";
  return `${month} ${wall.day}, ${wall.year}, ${pad(wall.hour)}:${pad(wall.minute)} ${abbreviation} (America/Chicago)`;
}

/** A case being monitored for a month, so the stories' logs, some reaching back days, lie in its recording. */
async function monitoringCase(): Promise<Case> {
  const subject = await caseIn(harness, team, clientId, "monitoring");
  await setRecordingPeriod(harness, subject.id, new Date(Date.now() - 30 * 24 * 3_600_000));
  return subject;
}
const latestPath = (caseId: string) => `${collectionOf("time-log", caseId)}/latest/revisions`;

async function listOf(caller: Caller, caseId: string): Promise<TimeLogList> {
  const response = await caller("GET", `${collectionOf("time-log", caseId)}?includeDeleted=true`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

describe("clocking in and out", () => {
  it("runs a log with no end, counts its minutes to now, and clocks it out through latest", async () => {
    const subject = await monitoringCase();
    const technologist = await newTechnologist();
    await createItem(
      technologist,
      "time-log",
      subject.id,
      sampleTimeLog({ startedAt: minutesAgo(300), endedAt: minutesAgo(240) }),
    );
    const running = await createItem<TimeLogItem>(
      technologist,
      "time-log",
      subject.id,
      sampleTimeLog({ startedAt: minutesAgo(30), endedAt: null }),
    );
    expect(running).toMatchObject({ running: true, technologist: { username: technologist.username } });
    expect(running.durationMinutes).toBeGreaterThanOrEqual(29);
    expect((await listOf(technologist, subject.id)).summary.runningMine?.id).toBe(running.id);
    expect((await listOf(team.technologist, subject.id)).summary.runningMine).toBeNull();

    const response = await technologist("POST", latestPath(subject.id), { body: { change: "clock-out" } });
    expect(response.statusCode, response.body).toBe(201);
    const stopped: TimeLogItem = response.json().data;
    expect(stopped).toMatchObject({ id: running.id, revision: 2, running: false });
    expect(Date.now() - Date.parse(stopped.data.endedAt as string)).toBeLessThan(60_000);
    const history = (await technologist("GET", itemPath("time-log", subject.id, running.id))).json().data;
    expect(history.revisions.map((revision: { change: string }) => revision.change)).toEqual(["create", "clock-out"]);

    const again = await technologist("POST", latestPath(subject.id), { body: { change: "clock-out" } });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(
      `This time log is not running: it ended at ${chicagoText(stopped.data.endedAt as string)}.`,
    );
  });

  it("answers 404 through latest when the caller has no log on the case", async () => {
    const subject = await monitoringCase();
    await createItem(
      team.technologist,
      "time-log",
      subject.id,
      sampleTimeLog({ endedAt: null, startedAt: minutesAgo(5) }),
    );
    const stranger = await newTechnologist();
    const response = await stranger("POST", latestPath(subject.id), { body: { change: "clock-out" } });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.message).toMatch(/no time log/);
  });

  it("clocks out at a given time after the start, and checks a base when one is named", async () => {
    const subject = await monitoringCase();
    const technologist = await newTechnologist();
    const running = await createItem(
      technologist,
      "time-log",
      subject.id,
      sampleTimeLog({ startedAt: minutesAgo(90), endedAt: null }),
    );
    const path = itemPath("time-log", subject.id, running.id);
    const early = await technologist("POST", path, { body: { change: "clock-out", endedAt: minutesAgo(120) } });
    expect(early.statusCode).toBe(400);
    expect(early.json().error.details.issues[0].path).toBe("body.endedAt");
    const stale = await technologist("POST", path, { body: { change: "clock-out", baseRevision: 2 } });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.details.currentRevision).toBe(1);
    const endedAt = minutesAgo(15);
    const stopped = await technologist("POST", path, { body: { change: "clock-out", baseRevision: 1, endedAt } });
    expect(stopped.statusCode, stopped.body).toBe(201);
    expect(stopped.json().data).toMatchObject({ running: false, durationMinutes: 75 });
    expect(Date.parse(stopped.json().data.data.endedAt)).toBe(Date.parse(endedAt));
  });

  it("needs a base for other changes through latest, and applies them to the caller's latest log", async () => {
    const subject = await monitoringCase();
    const technologist = await newTechnologist();
    const log = await createItem(technologist, "time-log", subject.id, sampleTimeLog());
    const missing = await technologist("POST", latestPath(subject.id), { body: { change: "delete" } });
    expect(missing.statusCode).toBe(400);
    const deleted = await technologist("POST", latestPath(subject.id), { body: { change: "delete", baseRevision: 1 } });
    expect(deleted.statusCode, deleted.body).toBe(201);
    expect(deleted.json().data).toMatchObject({ id: log.id, deleted: true });
    // A deleted log is no longer the latest one.
    expect((await technologist("POST", latestPath(subject.id), { body: { change: "clock-out" } })).statusCode).toBe(
      404,
    );
  });

  it("refuses a start more than five minutes in the future with 400", async () => {
    const subject = await monitoringCase();
    const response = await team.technologist("POST", collectionOf("time-log", subject.id), {
      body: sampleTimeLog({ startedAt: new Date(Date.now() + 3_600_000).toISOString(), endedAt: null }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details.issues[0].path).toBe("body.startedAt");
  });
});

describe("overlapping logs of one technologist on one case", () => {
  it("refuses an overlap with 409 naming the other log; touching logs and other technologists are fine", async () => {
    const subject = await monitoringCase();
    const technologist = await newTechnologist();
    const first = await createItem(
      technologist,
      "time-log",
      subject.id,
      sampleTimeLog({ startedAt: minutesAgo(240), endedAt: minutesAgo(180) }),
    );
    const overlapping = await technologist("POST", collectionOf("time-log", subject.id), {
      body: sampleTimeLog({ startedAt: minutesAgo(200), endedAt: minutesAgo(150) }),
    });
    expect(overlapping.statusCode, overlapping.body).toBe(409);
    expect(overlapping.json().error.details.overlapping.id).toBe(first.id);
    // The other log's times as the screens show them, in the client's zone (America/Chicago) named, never UTC ISO.
    const message: string = overlapping.json().error.message;
    expect(message).toContain(
      `overlaps ${technologist.username}'s log on this case from ${chicagoText(first.data.startedAt as string)} to ${chicagoText(first.data.endedAt as string)};`,
    );
    expect(message).not.toMatch(/\d{2}:\d{2}:\d{2}(\.\d+)?Z/);

    // [start, end): a log that starts when the other ends does not overlap it.
    await createItem(
      technologist,
      "time-log",
      subject.id,
      sampleTimeLog({ startedAt: first.data.endedAt as string, endedAt: minutesAgo(120) }),
    );
    const colleague = await newTechnologist();
    await createItem(
      colleague,
      "time-log",
      subject.id,
      sampleTimeLog({ startedAt: minutesAgo(200), endedAt: minutesAgo(150) }),
    );
  });

  it("lets one log run at a time per technologist and case, and refuses an edit or restore into an overlap", async () => {
    const subject = await monitoringCase();
    const technologist = await newTechnologist();
    const running = await createItem(
      technologist,
      "time-log",
      subject.id,
      sampleTimeLog({ startedAt: minutesAgo(60), endedAt: null }),
    );
    const second = await technologist("POST", collectionOf("time-log", subject.id), {
      body: sampleTimeLog({ startedAt: minutesAgo(10), endedAt: null }),
    });
    expect(second.statusCode).toBe(409);
    const before = await createItem(
      technologist,
      "time-log",
      subject.id,
      sampleTimeLog({ startedAt: minutesAgo(180), endedAt: minutesAgo(120) }),
    );
    const edit = await technologist("POST", itemPath("time-log", subject.id, before.id), {
      body: { change: "edit", baseRevision: 1, data: { ...before.data, endedAt: minutesAgo(30) } },
    });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().error.details.issues[0].path).toBe("body.data.startedAt");

    await technologist("POST", itemPath("time-log", subject.id, running.id), {
      body: { change: "delete", baseRevision: 1 },
    });
    await createItem(technologist, "time-log", subject.id, sampleTimeLog({ startedAt: minutesAgo(50), endedAt: null }));
    const restore = await technologist("POST", itemPath("time-log", subject.id, running.id), {
      body: { change: "restore", baseRevision: 2 },
    });
    expect(restore.statusCode).toBe(409);
  });
});

describe("clocking in twice at the same moment", () => {
  it("starts exactly one running log when two starts race on one case", async () => {
    const subject = await monitoringCase();
    const technologist = await newTechnologist();
    const responses = await Promise.all(
      [0, 1, 2].map(() =>
        technologist("POST", collectionOf("time-log", subject.id), {
          body: sampleTimeLog({ startedAt: minutesAgo(1), endedAt: null }),
        }),
      ),
    );
    expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 409, 409]);
    const list = await listOf(technologist, subject.id);
    expect(list.items.filter((item) => item.running)).toHaveLength(1);
  });
});

describe("concurrent patients against the caps", () => {
  it("computes each log's peak of distinct cases of the same mode and flags it over the cap", async () => {
    const technologist = await newTechnologist();
    const [first, second, third, fourth] = [
      await monitoringCase(),
      await monitoringCase(),
      await monitoringCase(),
      await monitoringCase(),
    ];
    const a = await createItem<TimeLogItem>(
      technologist,
      "time-log",
      (first as Case).id,
      sampleTimeLog({ startedAt: minutesAgo(120), endedAt: null }),
    );
    expect(a).toMatchObject({ concurrentPeak: 1, cap: 2, overCap: false });
    const b = await createItem<TimeLogItem>(
      technologist,
      "time-log",
      (second as Case).id,
      sampleTimeLog({ startedAt: minutesAgo(90), endedAt: null }),
    );
    expect(b).toMatchObject({ concurrentPeak: 2, overCap: false });
    // Intermittent monitoring elsewhere is not continuous load.
    await createItem(
      technologist,
      "time-log",
      (fourth as Case).id,
      sampleTimeLog({ mode: "intermittent", startedAt: minutesAgo(80), endedAt: null }),
    );
    const c = await createItem<TimeLogItem>(
      technologist,
      "time-log",
      (third as Case).id,
      sampleTimeLog({ startedAt: minutesAgo(60), endedAt: null }),
    );
    expect(c).toMatchObject({ concurrentPeak: 3, cap: 2, overCap: true });

    const list = await listOf(team.coordinator, (first as Case).id);
    expect(list.items[0]).toMatchObject({ id: a.id, concurrentPeak: 3, overCap: true });
    expect(list.summary.caps).toEqual({ intermittent: 3, continuous: 2 });
    expect(list.summary.technologists).toEqual([
      {
        technologist: {
          sub: technologist.sub,
          username: technologist.username,
          name: `${technologist.username} Tester`,
        },
        intermittent: 1,
        continuous: 3,
        overCap: true,
      },
    ]);
  });

  it("counts only the instants a log covers, and gives unmonitored logs no cap", async () => {
    const technologist = await newTechnologist();
    const [first, second, third] = [await monitoringCase(), await monitoringCase(), await monitoringCase()];
    const early = await createItem<TimeLogItem>(
      technologist,
      "time-log",
      (first as Case).id,
      sampleTimeLog({ startedAt: minutesAgo(600), endedAt: minutesAgo(480) }),
    );
    await createItem(
      technologist,
      "time-log",
      (second as Case).id,
      sampleTimeLog({ startedAt: minutesAgo(540), endedAt: minutesAgo(420) }),
    );
    const late = await createItem<TimeLogItem>(
      technologist,
      "time-log",
      (third as Case).id,
      sampleTimeLog({ startedAt: minutesAgo(470), endedAt: minutesAgo(400) }),
    );
    // first ∩ second and second ∩ third overlap, but first and third never run at the same instant.
    expect(late.concurrentPeak).toBe(2);
    const history = (await technologist("GET", itemPath("time-log", (first as Case).id, early.id))).json().data;
    expect(history.item.concurrentPeak).toBe(2);
    const unmonitored = await createItem<TimeLogItem>(
      technologist,
      "time-log",
      (third as Case).id,
      sampleTimeLog({ mode: "unmonitored", startedAt: minutesAgo(60), endedAt: minutesAgo(30) }),
    );
    expect(unmonitored).toMatchObject({ cap: null, overCap: false, concurrentPeak: 1 });
  });
});

describe("concurrent patients over long logs", () => {
  // Overlap queries bound how far back a log can have started by the longest finished log and the oldest running
  // one (db/time-log-overlaps.ts); these logs start days before the one judged, far beyond the others' lengths.
  it("counts a log that started days earlier, finished or still running, as concurrent", async () => {
    const technologist = await newTechnologist();
    const [first, second, third] = [await monitoringCase(), await monitoringCase(), await monitoringCase()];
    await createItem(
      technologist,
      "time-log",
      (first as Case).id,
      sampleTimeLog({ startedAt: minutesAgo(6 * 24 * 60), endedAt: minutesAgo(30) }),
    );
    await createItem(
      technologist,
      "time-log",
      (second as Case).id,
      sampleTimeLog({ startedAt: minutesAgo(9 * 24 * 60), endedAt: null }),
    );
    const short = await createItem<TimeLogItem>(
      technologist,
      "time-log",
      (third as Case).id,
      sampleTimeLog({ startedAt: minutesAgo(60), endedAt: minutesAgo(45) }),
    );
    expect(short).toMatchObject({ concurrentPeak: 3, cap: 2, overCap: true });
  });
});

describe("review checks of intermittent monitoring", () => {
  it("is overdue 2 h after the running intermittent log started without a check, and not after a check", async () => {
    const subject = await monitoringCase();
    const technologist = await newTechnologist();
    const startedAt = minutesAgo(180);
    await createItem(
      technologist,
      "time-log",
      subject.id,
      sampleTimeLog({ mode: "intermittent", startedAt, endedAt: null }),
    );
    const before = (await listOf(technologist, subject.id)).summary.reviewCheck;
    expect(before).toMatchObject({ required: true, overdue: true });
    expect(Date.parse(before.lastAt as string)).toBe(Date.parse(startedAt));
    expect(Date.parse(before.dueAt as string)).toBe(Date.parse(startedAt) + 2 * 3_600_000);

    const checkedAt = minutesAgo(10);
    const check = await createItem(
      technologist,
      "event",
      subject.id,
      sampleEvent({ type: "review-check", occurredAt: checkedAt, description: "Reviewed the last 2 h: no seizures." }),
    );
    const after = (await listOf(technologist, subject.id)).summary.reviewCheck;
    expect(after).toMatchObject({ required: true, overdue: false });
    expect(Date.parse(after.lastAt as string)).toBe(Date.parse(checkedAt));

    await technologist("POST", itemPath("event", subject.id, check.id), {
      body: { change: "delete", baseRevision: 1 },
    });
    expect((await listOf(technologist, subject.id)).summary.reviewCheck.overdue).toBe(true);
  });

  it("is not required without a running intermittent log", async () => {
    const subject = await monitoringCase();
    await createItem(
      team.technologist,
      "time-log",
      subject.id,
      sampleTimeLog({ mode: "continuous", startedAt: minutesAgo(300), endedAt: null }),
    );
    expect((await listOf(team.coordinator, subject.id)).summary.reviewCheck).toEqual({
      required: false,
      lastAt: null,
      dueAt: null,
      overdue: false,
    });
  });
});

describe("billable minutes", () => {
  it("adds the live billable logs of the case, running ones up to now", async () => {
    const subject = await monitoringCase();
    const technologist = await newTechnologist();
    await createItem(
      technologist,
      "time-log",
      subject.id,
      sampleTimeLog({ startedAt: minutesAgo(600), endedAt: minutesAgo(540) }),
    );
    await createItem(
      technologist,
      "time-log",
      subject.id,
      sampleTimeLog({ startedAt: minutesAgo(500), endedAt: minutesAgo(470), billable: false }),
    );
    const deleted = await createItem(
      technologist,
      "time-log",
      subject.id,
      sampleTimeLog({ startedAt: minutesAgo(400), endedAt: minutesAgo(300) }),
    );
    await technologist("POST", itemPath("time-log", subject.id, deleted.id), {
      body: { change: "delete", baseRevision: 1 },
    });
    await createItem(technologist, "time-log", subject.id, sampleTimeLog({ startedAt: minutesAgo(20), endedAt: null }));
    const minutes = (await listOf(technologist, subject.id)).summary.billableMinutes;
    expect(minutes).toBeGreaterThanOrEqual(79);
    expect(minutes).toBeLessThanOrEqual(81);
  });
});
