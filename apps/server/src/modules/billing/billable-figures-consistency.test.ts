import type { Client } from "@vigil/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareBillableFigures, recomputeBillableFiguresIfMissing } from "../../db/billable-figures.js";
import { billableSecondCarries, billableSecondsDaily, billableSecondsMonthly } from "../../db/schema.js";
import { logTime, monitoredCase } from "../../testing/kits/billing-kit.js";
import { type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { sampleClient, sampleProtocol } from "../../testing/kits/clients-kit.js";
import { itemPath, sampleTimeLog } from "../../testing/kits/records-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { dayBuckets, monthWindow, weekBuckets } from "./billing-calendar.js";
import {
  sumKeptMonthSecondsByCase,
  sumKeptSecondsByCase,
  sumKeptSecondsForReport,
} from "./billing-figures-repository.js";
import {
  type ClientWindow,
  sumBillableSecondsByCase,
  sumBillableSecondsForReport,
  type WindowCaseSeconds,
} from "./billing-repository.js";

/*
 * Billing reads figures kept on write (db/billable-figures.ts). After every kind of time-log write — create, edit,
 * delete, restore, clock-out, a new client time zone, a restore without figures (an import: records/
 * record-import-figures.test.ts) — the kept rows must equal
 * a recomputation from the logs, and billing's reads over them must equal the sums over the logs themselves, for
 * months, weeks and days of the client's calendar: across a DST change, and for logs whose fractions of a second
 * make one more whole second only when both of their ends are in the window.
 */

let harness: TestApp;
let team: Team;
let client: Client;
let caseId: string;

const logs = {
  // Over New York's DST end (1 Nov 2026) and two midnights.
  overDst: ["2026-10-31T23:00:00.000Z", "2026-11-02T05:30:00.000Z"],
  // 0.7 s before local midnight (05:00Z) and 0.8 s after: no day has a whole second, the log has one.
  carriedAlone: ["2026-11-03T04:59:59.300Z", "2026-11-03T05:00:00.800Z"],
  // 3599.7 s + 3600.9 s: the days have 7199 whole seconds, the log 7200.
  carried: ["2026-11-04T04:00:00.300Z", "2026-11-04T06:00:00.900Z"],
} as const;

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "figures");
  const created = await team.coordinator("POST", "/clients", {
    body: sampleClient({ timezone: "America/New_York", name: "Figures Hospital" }),
  });
  expect(created.statusCode, created.body).toBe(201);
  client = created.json().data;
  await team.coordinator("POST", `/clients/${client.id}/protocol/revisions`, { body: sampleProtocol() });
  caseId = (await monitoredCase(harness, team, client.id)).id;
});
afterAll(() => harness.close());

function windowsOf(timeZone: string): ClientWindow[][] {
  const months = ["2026-10", "2026-11"].map((month) => ({ key: month, ...monthWindow(month, timeZone) }));
  return [
    months,
    dayBuckets("2026-10-30", "2026-11-06", timeZone),
    weekBuckets("2026-10-28", "2026-11-27", timeZone),
  ].map((windows) =>
    windows.map((window) => ({ clientId: client.id, key: window.key, start: window.start, end: window.end })),
  );
}

const ordered = (lines: WindowCaseSeconds[]) =>
  [...lines].sort((left, right) => `${left.key}|${left.caseId}`.localeCompare(`${right.key}|${right.caseId}`));

async function expectFiguresKept(timeZone = "America/New_York") {
  const db = harness.database.db;
  expect(await compareBillableFigures(db)).toEqual([]);
  const now = new Date();
  const [months, ...others] = windowsOf(timeZone);
  for (const windows of [months as ClientWindow[], ...others]) {
    expect(ordered(await sumKeptSecondsByCase(db, windows, now))).toEqual(
      ordered(await sumBillableSecondsByCase(db, windows, now)),
    );
  }
  // The kept months: the same lines as the days and carries they fold, and as the logs.
  expect(ordered(await sumKeptMonthSecondsByCase(db, months as ClientWindow[], now))).toEqual(
    ordered(await sumBillableSecondsByCase(db, months as ClientWindow[], now)),
  );
  // The report by day reads the kept day rows as they are: the same sums as the logs give.
  const days = others[0] as ClientWindow[];
  const byKey = (rows: { key: string }[]) => [...rows].sort((left, right) => left.key.localeCompare(right.key));
  expect(byKey(await sumKeptSecondsForReport(db, days, now, { days: true }))).toEqual(
    byKey(await sumBillableSecondsForReport(db, days, now, { byTechnologist: false })),
  );
}

async function revise(recordId: string, body: Record<string, unknown>) {
  const response = await team.technologist("POST", itemPath("time-log", caseId, recordId), { body });
  expect(response.statusCode, response.body).toBe(201);
}

describe("billable figures kept on write", () => {
  it("equal the logs after creating, editing, deleting, restoring and clocking out", async () => {
    const overDst = await logTime(team.technologist, caseId, ...logs.overDst);
    const alone = await logTime(team.technologist, caseId, ...logs.carriedAlone);
    const carried = await logTime(team.technologist2, caseId, ...logs.carried);
    await logTime(team.technologist2, caseId, "2026-11-04T12:00:00.000Z", null);
    await expectFiguresKept();
    const [kept] = await harness.database.db.select().from(billableSecondCarries);
    expect(kept).toBeDefined();

    const edited = sampleTimeLog({ startedAt: "2026-10-30T12:00:00.250Z", endedAt: "2026-11-01T05:00:00.000Z" });
    await revise(overDst.id, { change: "edit", baseRevision: 1, data: edited });
    await expectFiguresKept();
    await revise(alone.id, { change: "delete", baseRevision: 1, reason: "Duplicate" });
    await expectFiguresKept();
    await revise(alone.id, { change: "restore", baseRevision: 2 });
    await expectFiguresKept();
    const unbilled = sampleTimeLog({ startedAt: logs.carried[0], endedAt: logs.carried[1], billable: false });
    await revise(carried.id, { change: "edit", baseRevision: 1, data: unbilled });
    await expectFiguresKept();
    const latest = `${itemPath("time-log", caseId, "latest")}`;
    const stopped = await team.technologist2("POST", latest, {
      body: { change: "clock-out", endedAt: "2026-11-05T07:00:00.700Z" },
    });
    expect(stopped.statusCode, stopped.body).toBe(201);
    await expectFiguresKept();
  });

  it("move to the new calendar days when the client's time zone changes", async () => {
    const before = await harness.database.db.select().from(billableSecondsDaily);
    const current = await team.coordinator("GET", `/clients/${client.id}`);
    const changed = await team.coordinator("PUT", `/clients/${client.id}`, {
      ifMatch: String(current.headers.etag),
      body: sampleClient({ code: client.code, name: client.name, timezone: "Asia/Kolkata" }),
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const after = await harness.database.db.select().from(billableSecondsDaily);
    expect(after).not.toEqual(before);
    await expectFiguresKept("Asia/Kolkata");
  });

  it("are recomputed when a restored or bulk-loaded database has logs and no figures", async () => {
    const db = harness.database.db;
    expect(await recomputeBillableFiguresIfMissing(db)).toBe(false);
    await db.execute(sql`delete from billable_seconds_daily`);
    await db.execute(sql`delete from billable_second_carries`);
    await db.execute(sql`delete from billable_seconds_monthly`);
    expect(await compareBillableFigures(db)).not.toEqual([]);
    expect(await recomputeBillableFiguresIfMissing(db)).toBe(true);
    await expectFiguresKept("Asia/Kolkata");
  });

  it("fill in the months of a database migrated with its days and carries but no months", async () => {
    const db = harness.database.db;
    const months = await db.select().from(billableSecondsMonthly);
    expect(months.length, "the figures hold months").toBeGreaterThan(0);
    await db.execute(sql`delete from billable_seconds_monthly`);
    expect((await compareBillableFigures(db)).map((difference) => difference.table)).toContain(
      "billable_seconds_monthly",
    );
    expect(await recomputeBillableFiguresIfMissing(db)).toBe(true);
    await expectFiguresKept("Asia/Kolkata");
  });
});
