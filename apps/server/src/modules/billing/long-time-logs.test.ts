import type { BillableHoursReport, BillingStatement } from "@vigil/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  billingBase,
  centiHours,
  clientIn,
  logTime,
  monitoredCase,
  reportBase,
  secondsBetween,
  twoDecimals,
} from "../../testing/kits/billing-kit.js";
import { type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

/*
 * Billing reads the logs overlapping a period with a look-back bounded by the longest finished log (see
 * db/time-log-overlaps.ts). These logs began days before the period they are billed in — far longer than the
 * short logs around them — and their hours inside the period must still count, to the second.
 */

let harness: TestApp;
let team: Team;
let clientId: string;

const long = ["2026-09-24T06:00:00.000Z", "2026-10-03T06:00:00.000Z"] as const; // nine days, into October
const short = ["2026-10-02T10:00:00.000Z", "2026-10-02T11:00:00.000Z"] as const;

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "long-logs");
  clientId = (await clientIn(team, "UTC", "Long Logs Hospital")).id;
  const [first, second] = [await monitoredCase(harness, team, clientId), await monitoredCase(harness, team, clientId)];
  await logTime(team.technologist, first.id, long[0], long[1]);
  await logTime(team.technologist2, second.id, short[0], short[1]);
});
afterAll(() => harness.close());

describe("a log that began days before the period", () => {
  it("counts its hours inside the month on the statement", async () => {
    const response = await team.billing("GET", `${billingBase}/${clientId}/2026-10`);
    expect(response.statusCode, response.body).toBe(200);
    const statement: BillingStatement = response.json().data;
    const october = ["2026-10-01T00:00:00.000Z", "2026-11-01T00:00:00.000Z"] as const;
    const expected =
      centiHours(secondsBetween(long[0], long[1], ...october)) + centiHours(secondsBetween(short[0], short[1]));
    expect(statement.totals.hours).toBe(twoDecimals(expected));
    expect(statement.totals.caseCount).toBe(2);
  });

  it("counts its hours on each day of the report it covers", async () => {
    const response = await team.coordinator(
      "GET",
      `${reportBase}?from=2026-10-02&to=2026-10-04&groupBy=day&clientId=${clientId}`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const report: BillableHoursReport = response.json().data;
    expect(report.rows.map((row) => [row.key, row.hours])).toEqual([
      ["2026-10-02", twoDecimals(centiHours(24 * 3600 + 3600))],
      ["2026-10-03", twoDecimals(centiHours(6 * 3600))],
      ["2026-10-04", "0.00"],
    ]);
    expect(report.totals.logCount).toBe(2);
  });
});
