import type { Client } from "@vigil/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logTime, monitoredCase } from "../testing/kits/billing-kit.js";
import { createClient, type Team, teamFor } from "../testing/kits/cases-kit.js";
import { collectionOf, itemPath, sampleTimeLog } from "../testing/kits/records-kit.js";
import { createTestApp, type TestApp } from "../testing/test-app.js";
import { queryRows } from "./client.js";
import {
  compareConcurrentPeaks,
  fillMissingConcurrentPeaks,
  type PeakLog,
  peakAmong,
  peaksWithin,
} from "./concurrent-peaks.js";

const hour = 3_600_000;
const log = (recordId: string, caseId: string, start: number, end: number | null): PeakLog => ({
  recordId,
  caseId,
  startMs: start * hour,
  endMs: end === null ? null : end * hour,
});

describe("a log's concurrent-patient peak", () => {
  it("is 1 for a log alone, and touching logs ([start, end)) do not overlap", () => {
    expect(peakAmong({ caseId: "a", startMs: hour }, 2 * hour, [])).toBe(1);
    const group = [log("1", "a", 1, 2), log("2", "b", 2, 3)];
    expect(peaksWithin(group, group)).toEqual(
      new Map([
        ["1", 1],
        ["2", 1],
      ]),
    );
  });

  it("counts distinct cases at the busiest instant, not every case met during the log", () => {
    const group = [
      log("own", "a", 1, 6),
      log("b1", "b", 1, 2),
      log("c", "c", 3, 4),
      log("d", "d", 3, null),
      // Another log of case b: still one patient.
      log("b2", "b", 3, 5),
    ];
    const peaks = peaksWithin(group, group);
    expect(peaks.get("own")).toBe(4);
    expect(peaks.get("b1")).toBe(2);
    expect(peaks.get("c")).toBe(4);
    expect(peaksWithin(group.slice(0, 3), group.slice(0, 1)).get("own")).toBe(2);
  });

  it("judges a running log open-ended: every later log of its technologist overlaps it", () => {
    const group = [log("own", "a", 10, null), log("b", "b", 8, 10), log("c", "c", 11, null), log("d", "d", 13, 14)];
    const peaks = peaksWithin(group, group);
    expect(peaks.get("own")).toBe(3);
    expect(peaks.get("b")).toBe(1);
    expect(peaks.get("d")).toBe(3);
  });

  it("finds peers that started long before a log, bounded by the longest finished log", () => {
    const group = [
      log("long", "a", 0, 100),
      ...Array.from({ length: 50 }, (_, i) => log(`s${i}`, "b", i * 2, i * 2 + 1)),
    ];
    const peaks = peaksWithin(group, group);
    expect(peaks.get("long")).toBe(2);
    expect(peaks.get("s40")).toBe(2);
  });
});

let harness: TestApp;
let team: Team;
let client: Client;
const caseIds: string[] = [];

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "peaks");
  client = await createClient(team.admin);
  for (let index = 0; index < 4; index++) caseIds.push((await monitoredCase(harness, team, client.id)).id);
}, 120_000);
afterAll(() => harness?.close());

async function keptPeaks(): Promise<Record<string, number | null>> {
  const rows = await queryRows<{ recordId: string; peak: number | null }>(
    harness.database.db,
    sql`select record_id as "recordId", concurrent_peak as peak from case_time_logs`,
  );
  return Object.fromEntries(rows.map((row) => [row.recordId, row.peak === null ? null : Number(row.peak)]));
}

async function revise(caseId: string, recordId: string, body: Record<string, unknown>) {
  const response = await team.technologist("POST", itemPath("time-log", caseId, recordId), { body });
  expect(response.statusCode, response.body).toBe(201);
}

async function tabPeaks(caseId: string): Promise<Record<string, number>> {
  const response = await team.technologist("GET", `${collectionOf("time-log", caseId)}?includeDeleted=true`);
  expect(response.statusCode, response.body).toBe(200);
  const items = response.json().data.items as { id: string; concurrentPeak: number }[];
  return Object.fromEntries(items.map((item) => [item.id, item.concurrentPeak]));
}

describe("concurrent-patient peaks kept on write", () => {
  it("follow every create, edit, delete, restore and clock-out, and equal a count from the logs", async () => {
    const [a, b, c, d] = caseIds as [string, string, string, string];
    const first = await logTime(team.technologist, a, "2026-03-02T08:00:00.000Z", "2026-03-02T12:00:00.000Z");
    const second = await logTime(team.technologist, b, "2026-03-02T09:00:00.000Z", "2026-03-02T11:00:00.000Z");
    const third = await logTime(team.technologist, c, "2026-03-02T10:00:00.000Z", "2026-03-02T10:30:00.000Z");
    // Another technologist's and another mode's logs never count against the first technologist's.
    const other = await logTime(team.technologist2, d, "2026-03-02T08:00:00.000Z", "2026-03-02T12:00:00.000Z");
    const intermittent = await logTime(team.technologist, d, "2026-03-02T08:00:00.000Z", "2026-03-02T12:00:00.000Z", {
      mode: "intermittent",
    });
    expect(await keptPeaks()).toMatchObject({
      [first.id]: 3,
      [second.id]: 3,
      [third.id]: 3,
      [other.id]: 1,
      [intermittent.id]: 1,
    });
    expect(await compareConcurrentPeaks(harness.database.db)).toEqual([]);

    // Moving the third log away lowers the peaks of the logs it no longer overlaps.
    const moved = sampleTimeLog({ startedAt: "2026-03-02T13:00:00.000Z", endedAt: "2026-03-02T14:00:00.000Z" });
    await revise(c, third.id, { change: "edit", baseRevision: 1, data: moved });
    expect(await keptPeaks()).toMatchObject({ [first.id]: 2, [second.id]: 2, [third.id]: 1 });

    await revise(b, second.id, { change: "delete", baseRevision: 1, reason: "Logged on the wrong case" });
    expect(await keptPeaks()).toMatchObject({ [first.id]: 1, [second.id]: null });
    // The tab still shows a deleted log's peak, counted as if it were live.
    expect((await tabPeaks(b))[second.id]).toBe(2);
    await revise(b, second.id, { change: "restore", baseRevision: 2 });
    expect(await keptPeaks()).toMatchObject({ [first.id]: 2, [second.id]: 2 });
    expect(await compareConcurrentPeaks(harness.database.db)).toEqual([]);

    // A running log overlaps everything its technologist starts after it, until it is clocked out.
    const running = await logTime(team.technologist, d, "2026-03-02T13:30:00.000Z", null);
    expect(await keptPeaks()).toMatchObject({ [running.id]: 2, [third.id]: 2 });
    const latest = itemPath("time-log", d, "latest");
    const stopped = await team.technologist("POST", latest, {
      body: { change: "clock-out", endedAt: "2026-03-02T13:45:00.000Z" },
    });
    expect(stopped.statusCode, stopped.body).toBe(201);
    expect(await keptPeaks()).toMatchObject({ [running.id]: 2, [third.id]: 2 });
    expect((await tabPeaks(a))[first.id]).toBe(2);
    expect(await compareConcurrentPeaks(harness.database.db)).toEqual([]);
  });

  it("are found wrong by the check when one is changed by hand, and filled when missing", async () => {
    const db = harness.database.db;
    expect(await fillMissingConcurrentPeaks(db)).toBe(0);
    await db.execute(sql`update case_time_logs set concurrent_peak = 7 where not deleted`);
    const wrong = await compareConcurrentPeaks(db);
    expect(wrong.length).toBeGreaterThan(0);
    expect(wrong[0]?.kept).toBe(7);
    await db.execute(sql`update case_time_logs set concurrent_peak = null`);
    expect(await fillMissingConcurrentPeaks(db)).toBeGreaterThan(0);
    expect(await compareConcurrentPeaks(db)).toEqual([]);
  });

  it("stay right when one technologist's logs on several cases are written at the same moment", async () => {
    const writes = caseIds.flatMap((caseId, index) =>
      [0, 1, 2].map((slot) =>
        logTime(
          team.technologist,
          caseId,
          `2026-04-0${1 + slot}T0${index}:00:00.000Z`,
          `2026-04-0${1 + slot}T0${index + 3}:00:00.000Z`,
        ),
      ),
    );
    const written = await Promise.all(writes);
    const peaks = await keptPeaks();
    // Each day: [0, 3), [1, 4), [2, 5), [3, 6) hours — three at once at 02:00 and at 03:00, never four.
    expect(written.map((item) => peaks[item.id])).toEqual(written.map(() => 3));
    expect(await compareConcurrentPeaks(harness.database.db)).toEqual([]);
  });
});
