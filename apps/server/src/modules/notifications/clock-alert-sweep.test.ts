import type { Case, ClockAlert, ClockKind } from "@vigil/contract";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caseClocks, clockAlerts, jobs, users } from "../../db/schema.js";
import { startJobRunner } from "../../jobs/job-runner.js";
import { type Caller, callerFor } from "../../testing/kits/caller-kit.js";
import {
  caseIn,
  createClient,
  openCase,
  setRecordingPeriod,
  type Team,
  teamFor,
} from "../../testing/kits/cases-kit.js";
import { closeFindingRow, insertFindingRow } from "../../testing/kits/finding-rows-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { refreshCaseClocks } from "../watch/watch-service.js";
import { sweepClockAlerts } from "./clock-alert-sweep.js";
import { clockAlertSweepJob } from "./clock-alert-sweep-job.js";

let harness: TestApp;
let team: Team;
let clientId: string;
const minute = 60_000;
const hour = 60 * minute;

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "alerts");
  // sampleProtocol: impedance checks every 12 hours, a STAT case taken within 60 minutes.
  clientId = (await createClient(team.coordinator)).id;
});
afterAll(() => harness.close());

const sweep = (now: Date) => sweepClockAlerts(harness.database.db, harness.config, harness.app.messages, now);

/** A case in monitoring (its technologist assigned) recording since `hoursAgo`, its kept clocks refreshed. */
async function recordingCase(hoursAgo: number): Promise<Case> {
  const subject = await caseIn(harness, team, clientId, "monitoring");
  await setRecordingPeriod(harness, subject.id, new Date(Date.now() - hoursAgo * hour), null);
  await harness.database.db.transaction((tx) => refreshCaseClocks(tx, subject.id));
  return subject;
}

/** The kept clock's due time and the moments it turns due soon (default share 0.25) and overdue. */
async function clockTimes(caseId: string, kind: ClockKind) {
  const [clock] = await harness.database.db
    .select()
    .from(caseClocks)
    .where(and(eq(caseClocks.caseId, caseId), eq(caseClocks.kind, kind)));
  if (!clock) throw new Error(`no ${kind} clock on ${caseId}`);
  const dueAt = clock.dueAt.getTime();
  return {
    dueSoon: new Date(dueAt - clock.windowMinutes * minute * 0.25 + minute),
    overdue: new Date(dueAt + minute),
    justBeforeDueSoon: new Date(dueAt - clock.windowMinutes * minute * 0.25 - minute),
  };
}

async function sweepJobs() {
  return harness.database.db.select().from(jobs).where(eq(jobs.kind, "clock-alert-sweep"));
}

async function alertRows(caseId: string) {
  return harness.database.db.select().from(clockAlerts).where(eq(clockAlerts.caseId, caseId));
}

async function ownAlerts(caller: Caller, query = ""): Promise<{ items: ClockAlert[]; total: number; unread: number }> {
  const response = await caller("GET", `/api/notifications/clock-alerts${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

async function optIn(caller: Caller, emailClockAlerts: boolean) {
  const response = await caller("PUT", "/api/notifications/preferences", { body: { emailClockAlerts } });
  expect(response.statusCode, response.body).toBe(200);
}

describe("the clock alert sweep", () => {
  it("tells the owner once when a clock turns due soon, once more when it is overdue, and not before", async () => {
    const subject = await recordingCase(1);
    const times = await clockTimes(subject.id, "impedance-check");

    await sweep(times.justBeforeDueSoon);
    expect(await alertRows(subject.id)).toEqual([]);

    await sweep(times.dueSoon);
    await sweep(times.dueSoon);
    await sweep(new Date(times.dueSoon.getTime() + 10 * minute));
    expect((await alertRows(subject.id)).map((row) => [row.recipientUsername, row.state])).toEqual([
      [team.technologist.username, "due-soon"],
    ]);

    await sweep(times.overdue);
    const again = await sweep(times.overdue);
    expect(again).toEqual({ alerts: 0, emails: 0 });
    const rows = await alertRows(subject.id);
    expect(rows.map((row) => row.state).sort()).toEqual(["due-soon", "overdue"]);
    expect(new Set(rows.map((row) => row.recipientUsername))).toEqual(new Set([team.technologist.username]));

    const mine = await ownAlerts(team.technologist);
    const forCase = mine.items.filter((alert) => alert.caseId === subject.id);
    expect(forCase.map((alert) => alert.state)).toEqual(["overdue", "due-soon"]);
    expect(forCase[0]).toMatchObject({
      caseNumber: subject.caseNumber,
      kind: "impedance-check",
      readAt: null,
      client: { id: clientId },
      href: `/continuous-monitoring/cases/monitoring/${subject.id}/impedances`,
    });
  });

  it("tells a clock already overdue at its first sweep once, as overdue", async () => {
    const subject = await recordingCase(1);
    const times = await clockTimes(subject.id, "impedance-check");
    await sweep(times.overdue);
    expect((await alertRows(subject.id)).map((row) => row.state)).toEqual(["overdue"]);
  });

  it("tells whoever raised a critical finding as its acknowledgement falls due, on the case overview, then of the next open one", async () => {
    const subject = await recordingCase(1);
    const db = harness.database.db;
    const raisedBy = { sub: team.reviewer.sub, username: team.reviewer.username };
    const now = Date.now();
    let first = { id: "", dueAt: new Date(0) };
    await db.transaction(async (tx) => {
      first = await insertFindingRow(tx, subject.id, { raisedAt: new Date(now), windowMinutes: 30, raisedBy });
      await insertFindingRow(tx, subject.id, { raisedAt: new Date(now + minute), windowMinutes: 60, raisedBy });
      await refreshCaseClocks(tx, subject.id);
    });
    const findingAlerts = async () =>
      (await alertRows(subject.id))
        .filter((row) => row.kind === "critical-notification")
        .map((row) => [row.recipientUsername, row.state, row.dueAt.toISOString()]);

    const times = await clockTimes(subject.id, "critical-notification");
    await sweep(times.dueSoon);
    await sweep(times.overdue);
    expect(await findingAlerts()).toEqual([
      [team.reviewer.username, "due-soon", first.dueAt.toISOString()],
      [team.reviewer.username, "overdue", first.dueAt.toISOString()],
    ]);
    const [latest] = (await ownAlerts(team.reviewer)).items.filter((alert) => alert.caseId === subject.id);
    expect(latest).toMatchObject({
      kind: "critical-notification",
      state: "overdue",
      href: `/continuous-monitoring/cases/monitoring/${subject.id}/overview`,
    });

    // Acknowledged: the kept clock is now the other finding's, which is told of in its own turn.
    await db.transaction(async (tx) => {
      await closeFindingRow(tx, first.id, { acknowledgedAt: new Date(now + 40 * minute) });
      await refreshCaseClocks(tx, subject.id);
    });
    const next = await clockTimes(subject.id, "critical-notification");
    await sweep(next.overdue);
    const secondDue = new Date(now + 61 * minute).toISOString();
    expect((await findingAlerts()).filter(([, , dueAt]) => dueAt === secondDue)).toEqual([
      [team.reviewer.username, "overdue", secondDue],
    ]);
  });

  it("tells every enabled coordinator of a clock nobody else owns", async () => {
    const second = await callerFor(harness, "alerts-coordinator2", ["coordinator"]);
    const away = await callerFor(harness, "alerts-coordinator-away", ["coordinator"]);
    await harness.database.db.update(users).set({ enabled: false }).where(eq(users.username, away.username));
    // A STAT case nobody has taken: the coordinators own its clock until a reviewer is assigned.
    const stat = await openCase(team.coordinator, clientId, { priority: "stat" });
    const times = await clockTimes(stat.id, "stat-acknowledgement");

    await sweep(times.overdue);
    await sweep(times.overdue);
    const rows = await alertRows(stat.id);
    expect(rows.map((row) => row.recipientUsername).sort()).toEqual(
      [team.coordinator.username, second.username].sort(),
    );
    expect(rows.every((row) => row.state === "overdue" && row.kind === "stat-acknowledgement")).toBe(true);
  });

  it("also tells the coordinators when the owner can no longer sign in", async () => {
    const subject = await recordingCase(1);
    const times = await clockTimes(subject.id, "impedance-check");
    await harness.database.db
      .update(users)
      .set({ enabled: false })
      .where(eq(users.username, team.technologist.username));
    try {
      await sweep(times.overdue);
    } finally {
      await harness.database.db
        .update(users)
        .set({ enabled: true })
        .where(eq(users.username, team.technologist.username));
    }
    const recipients = (await alertRows(subject.id)).map((row) => row.recipientUsername);
    expect(recipients).toContain(team.technologist.username);
    expect(recipients).toContain(team.coordinator.username);
  });

  it("e-mails only those who opted in, with the case number, what is due and a link, never the patient", async () => {
    await optIn(team.technologist, true);
    const subject = await recordingCase(1);
    const stat = await openCase(team.coordinator, clientId, { priority: "stat" });
    const times = await clockTimes(subject.id, "impedance-check");
    try {
      await sweep(times.overdue);
      await sweep(times.overdue);
    } finally {
      await optIn(team.technologist, false);
    }

    const outbox = await harness.app.messages.listOutbox({ recipient: `${team.technologist.username}@vigil.test` });
    const aboutCase = outbox.filter((message) => message.body.includes(subject.caseNumber));
    expect(aboutCase).toHaveLength(1);
    const [message] = aboutCase;
    expect(message?.subject).toBe(`Vigil: Impedance check overdue — case ${subject.caseNumber}`);
    expect(message?.body).toContain(
      `http://vigil.test/#/continuous-monitoring/cases/monitoring/${subject.id}/impedances`,
    );
    expect(message?.body).toMatch(/^Due: .+ \(.+\)$/m);
    expect(subject.patient).not.toBeNull();
    for (const secret of [subject.patient?.firstName, subject.patient?.lastName, subject.patient?.mrn]) {
      if (!secret) throw new Error("the case has no patient");
      expect(message?.body).not.toContain(secret);
      expect(message?.subject).not.toContain(secret);
    }
    const [row] = (await alertRows(subject.id)).filter((alert) => alert.state === "overdue");
    expect(row?.emailedAt).toBeInstanceOf(Date);

    // The coordinators were told of the STAT case in the app, but none asked for e-mail.
    expect((await alertRows(stat.id)).length).toBeGreaterThan(0);
    const coordinatorMail = await harness.app.messages.listOutbox({
      recipient: `${team.coordinator.username}@vigil.test`,
    });
    expect(coordinatorMail.filter((mail) => mail.body.includes(stat.caseNumber))).toEqual([]);
  });

  it("keeps a read alert read when later sweeps pass, and marks new ones unread", async () => {
    const subject = await recordingCase(1);
    const times = await clockTimes(subject.id, "impedance-check");
    await sweep(times.dueSoon);
    const [dueSoon] = (await ownAlerts(team.technologist)).items.filter((alert) => alert.caseId === subject.id);
    const marked = await team.technologist("POST", `/api/notifications/clock-alerts/${dueSoon?.id}/read`);
    expect(marked.statusCode, marked.body).toBe(200);
    const readAt = marked.json().data.readAt;
    expect(readAt).not.toBeNull();

    await sweep(times.dueSoon);
    await sweep(times.overdue);
    const forCase = (await ownAlerts(team.technologist)).items.filter((alert) => alert.caseId === subject.id);
    expect(forCase.map((alert) => [alert.state, alert.readAt])).toEqual([
      ["overdue", null],
      ["due-soon", readAt],
    ]);
  });
});

describe("the periodic sweep", () => {
  it("sweeps by itself once every WATCH_ALERT_SWEEP_SECONDS as a recurring job, and never with 0", async () => {
    // Recording for 13 hours: the 12-hour impedance check is overdue now, not only at a chosen moment.
    const subject = await recordingCase(13);
    const withSeconds = (alertSweepSeconds: number) => ({
      ...harness.config,
      watch: { ...harness.config.watch, alertSweepSeconds },
    });
    const off = startJobRunner(
      harness.database,
      [clockAlertSweepJob(withSeconds(0), harness.app.messages)],
      harness.app.log,
      {
        pollMs: 100,
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await off.stop();
    expect(await alertRows(subject.id)).toEqual([]);
    expect(await sweepJobs()).toEqual([]);

    const sweeps = startJobRunner(
      harness.database,
      [clockAlertSweepJob(withSeconds(1), harness.app.messages)],
      harness.app.log,
      { pollMs: 100 },
    );
    // Generous deadlines: a loaded host may delay a one-second period by several seconds; the
    // polls return as soon as the second sweep is done.
    try {
      await expect
        .poll(async () => (await alertRows(subject.id)).map((row) => row.state), { timeout: 15_000 })
        .toEqual(["overdue"]);
      await expect
        .poll(async () => (await sweepJobs()).filter((job) => job.state === "done").length, {
          timeout: 15_000,
          interval: 100,
        })
        .toBeGreaterThan(1);
    } finally {
      await sweeps.stop();
    }
    // One job per one-second period, each run once.
    const done = await sweepJobs();
    expect(done.every((job) => job.state === "done" && job.attempts === 1)).toBe(true);
    expect(new Set(done.map((job) => job.uniqueKey)).size).toBe(done.length);
  });
});

describe("the caller's clock alerts", () => {
  it("shows each user only their own alerts, and refuses to mark anyone else's", async () => {
    const subject = await recordingCase(1);
    await sweep((await clockTimes(subject.id, "impedance-check")).overdue);
    const [theirs] = (await ownAlerts(team.technologist)).items.filter((alert) => alert.caseId === subject.id);
    expect(theirs).toBeDefined();

    const reviewerView = await ownAlerts(team.reviewer);
    expect(reviewerView.items.filter((alert) => alert.caseId === subject.id)).toEqual([]);
    const refused = await team.reviewer("POST", `/api/notifications/clock-alerts/${theirs?.id}/read`);
    expect(refused.statusCode).toBe(404);
    const [stillUnread] = (await ownAlerts(team.technologist)).items.filter((alert) => alert.id === theirs?.id);
    expect(stillUnread?.readAt).toBeNull();
  });

  it("pages newest first with the unread count of all pages, and marks all read at once", async () => {
    const first = await ownAlerts(team.technologist, "?limit=1");
    expect(first.items).toHaveLength(1);
    expect(first.total).toBeGreaterThan(1);
    expect(first.unread).toBeGreaterThan(0);
    const second = await ownAlerts(team.technologist, "?limit=1&offset=1");
    expect(Date.parse(second.items[0]?.createdAt ?? "")).toBeLessThanOrEqual(
      Date.parse(first.items[0]?.createdAt ?? ""),
    );

    const all = await team.technologist("POST", "/api/notifications/clock-alerts/read");
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().data).toMatchObject({ unread: 0 });
    expect(all.json().data.marked).toBeGreaterThan(0);
    expect((await ownAlerts(team.technologist)).unread).toBe(0);
  });

  it("keeps each user's e-mail choice, off until they turn it on", async () => {
    const before = await team.billing("GET", "/api/notifications/preferences");
    expect(before.json().data).toEqual({ emailClockAlerts: false });
    await optIn(team.billing, true);
    const after = await team.billing("GET", "/api/notifications/preferences");
    expect(after.json().data).toEqual({ emailClockAlerts: true });
    expect((await team.reviewer("GET", "/api/notifications/preferences")).json().data).toEqual({
      emailClockAlerts: false,
    });
  });

  it("answers 400 naming the field for bad input", async () => {
    const badLimit = await team.technologist("GET", "/api/notifications/clock-alerts?limit=0");
    expect(badLimit.statusCode).toBe(400);
    expect(JSON.stringify(badLimit.json().error.details)).toContain("querystring.limit");
    const badId = await team.technologist("POST", "/api/notifications/clock-alerts/not-an-id/read");
    expect(badId.statusCode).toBe(400);
    const badChoice = await team.technologist("PUT", "/api/notifications/preferences", {
      body: { emailClockAlerts: "yes" },
    });
    expect(badChoice.statusCode).toBe(400);
    const extra = await team.technologist("PUT", "/api/notifications/preferences", {
      body: { emailClockAlerts: true, email: "someone@example.org" },
    });
    expect(extra.statusCode).toBe(400);
  });

  it("answers 401 without a sign-in", async () => {
    const response = await harness.app.inject({ method: "GET", url: "/api/notifications/clock-alerts" });
    expect(response.statusCode).toBe(401);
  });
});
