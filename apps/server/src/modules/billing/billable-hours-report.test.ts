import type { BillableHoursReport, Client } from "@vigil/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  centiHours,
  clientIn,
  logTime,
  monitoredCase,
  reportBase,
  secondsBetween,
  twoDecimals,
} from "../../testing/kits/billing-kit.js";
import { type Team, teamFor, unknownId } from "../../testing/kits/cases-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

let harness: TestApp;
let team: Team;
let client: Client;

/**
 * One client in Los Angeles (UTC−7 in October 2026) and a period of two ISO weeks, Monday 5 to Sunday 18 October.
 * Day by day in Los Angeles: the 5th has 4 h (technologist 1), the 6th 1 h and the 7th 2 h (one log across local
 * midnight), the 12th 1.5 h (technologist 2), the 18th 1 h (a log that runs on past the period's end).
 */
const period = { from: "2026-10-05", to: "2026-10-18" };
const periodStart = "2026-10-05T07:00:00.000Z";
const periodEnd = "2026-10-19T07:00:00.000Z";
const logs = {
  first: [
    ["2026-10-05T15:00:00.000Z", "2026-10-05T19:00:00.000Z"],
    ["2026-10-07T06:00:00.000Z", "2026-10-07T09:00:00.000Z"],
  ],
  second: [
    ["2026-10-12T16:00:00.000Z", "2026-10-12T17:30:00.000Z"],
    ["2026-10-19T06:00:00.000Z", "2026-10-19T08:00:00.000Z"],
  ],
};

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "report");
  client = await clientIn(team, "America/Los_Angeles", "Delta Reporting Center");
  const [first, second] = [
    await monitoredCase(harness, team, client.id),
    await monitoredCase(harness, team, client.id),
  ];
  for (const [start, end] of logs.first) await logTime(team.technologist, first.id, start as string, end as string);
  for (const [start, end] of logs.second) await logTime(team.technologist2, second.id, start as string, end as string);
  // Outside the report: before the period (3–5 am on the 4th in Los Angeles), and not billable.
  await logTime(team.technologist, first.id, "2026-10-04T10:00:00.000Z", "2026-10-04T12:00:00.000Z");
  await logTime(team.technologist, first.id, "2026-10-08T10:00:00.000Z", "2026-10-08T12:00:00.000Z", {
    billable: false,
  });
  // Another client's hours in the period do not show when the report is filtered by client.
  const other = await clientIn(team, "UTC");
  const elsewhere = await monitoredCase(harness, team, other.id);
  await logTime(team.technologist, elsewhere.id, "2026-10-06T10:00:00.000Z", "2026-10-06T11:00:00.000Z");
});
afterAll(() => harness.close());

async function report(query: string, caller = team.coordinator): Promise<BillableHoursReport> {
  const response = await caller("GET", `${reportBase}?from=${period.from}&to=${period.to}&${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

/** Expected hundredths of an hour of a set of logs inside [from, to). */
function hundredths(pairs: string[][], from = periodStart, to = periodEnd): number {
  return centiHours(
    pairs.reduce((sum, [start, end]) => sum + secondsBetween(start as string, end as string, from, to), 0),
  );
}

describe("billable hours for a period", () => {
  it("groups by day in the client's time zone, with every day of the period and the totals of the rows", async () => {
    const byDay = await report(`groupBy=day&clientId=${client.id}`);
    expect(byDay.rows).toHaveLength(14);
    expect(byDay.rows[0]).toMatchObject({ key: "2026-10-05", label: "Mon 5 Oct 2026" });
    const hoursOn = Object.fromEntries(
      byDay.rows.filter((row) => row.hours !== "0.00").map((row) => [row.key, row.hours]),
    );
    expect(hoursOn).toEqual({
      "2026-10-05": "4.00",
      "2026-10-06": "1.00",
      "2026-10-07": "2.00",
      "2026-10-12": "1.50",
      "2026-10-18": "1.00",
    });
    const all = hundredths([...logs.first, ...logs.second]);
    expect(byDay.totals).toEqual({ hours: twoDecimals(all), caseCount: 2, logCount: 4 });
    expect(byDay).toMatchObject({ ...period, groupBy: "day", clientId: client.id, technologist: null });
    // The log across local midnight counts as a log on both days, and once in the totals.
    expect(byDay.rows.find((row) => row.key === "2026-10-06")).toMatchObject({ caseCount: 1, logCount: 1 });
    expect(byDay.rows.find((row) => row.key === "2026-10-07")).toMatchObject({ caseCount: 1, logCount: 1 });
  });

  it("cuts each client's days in its own zone when clients of several zones are reported together", async () => {
    const byDay = await report("groupBy=day");
    const hoursOn = (key: string) => byDay.rows.find((row) => row.key === key)?.hours;
    // Los Angeles: the log across its midnight gives 1 h to the 6th and 2 h to the 7th; UTC: 1 h on the 6th.
    expect(hoursOn("2026-10-06")).toBe("2.00");
    expect(hoursOn("2026-10-07")).toBe("2.00");
    expect(byDay.totals).toMatchObject({ hours: "10.50", caseCount: 3, logCount: 5 });
  });

  it("groups by ISO week and by month", async () => {
    const byWeek = await report(`groupBy=week&clientId=${client.id}`);
    expect(byWeek.rows).toEqual([
      expect.objectContaining({
        key: "2026-W41",
        hours: twoDecimals(hundredths(logs.first)),
        caseCount: 1,
        logCount: 2,
      }),
      expect.objectContaining({
        key: "2026-W42",
        hours: twoDecimals(hundredths(logs.second)),
        caseCount: 1,
        logCount: 2,
      }),
    ]);
    expect(byWeek.totals.hours).toBe("9.50");
    const byMonth = await report(`groupBy=month&clientId=${client.id}`);
    expect(byMonth.rows).toEqual([
      expect.objectContaining({ key: "2026-10", label: "October 2026", hours: "9.50", caseCount: 2, logCount: 4 }),
    ]);
  });

  it("groups by client and by technologist, and filters by technologist", async () => {
    const byClient = await report(`groupBy=client&clientId=${client.id}`);
    expect(byClient.rows).toEqual([
      { key: client.id, label: "Delta Reporting Center", hours: "9.50", caseCount: 2, logCount: 4 },
    ]);
    const everyone = await report("groupBy=client");
    expect(everyone.rows.map((row) => row.key)).toEqual([...everyone.rows.map((row) => row.key)].sort());
    expect(everyone.rows).toHaveLength(2);
    expect(everyone.totals).toMatchObject({ hours: "10.50", caseCount: 3, logCount: 5 });

    const byTechnologist = await report(`groupBy=technologist&clientId=${client.id}`);
    expect(byTechnologist.rows).toEqual([
      {
        key: team.technologist.username,
        label: `${team.technologist.username} Tester`,
        hours: twoDecimals(hundredths(logs.first)),
        caseCount: 1,
        logCount: 2,
      },
      {
        key: team.technologist2.username,
        label: `${team.technologist2.username} Tester`,
        hours: twoDecimals(hundredths(logs.second)),
        caseCount: 1,
        logCount: 2,
      },
    ]);
    const one = await report(`groupBy=day&technologist=${team.technologist2.username.toUpperCase()}`);
    expect(one.totals).toEqual({ hours: "2.50", caseCount: 1, logCount: 2 });
    expect(one.rows).toHaveLength(14);
  });

  it("answers billing users too, 404 for an unknown client and 400 for a period it cannot cover", async () => {
    expect((await report("groupBy=month", team.billing)).totals.hours).toBe("10.50");
    const unknown = await team.coordinator("GET", `${reportBase}?from=2026-10-01&to=2026-10-02&clientId=${unknownId}`);
    expect(unknown.statusCode).toBe(404);
    const backwards = await team.coordinator("GET", `${reportBase}?from=2026-10-05&to=2026-10-01`);
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().error.details.issues[0].path).toBe("querystring.from");
    const tooLong = await team.coordinator("GET", `${reportBase}?from=2026-01-01&to=2026-12-31&groupBy=day`);
    expect(tooLong.statusCode).toBe(400);
    const notADate = await team.coordinator("GET", `${reportBase}?from=2026-02-30&to=2026-03-01`);
    expect(notADate.statusCode).toBe(400);
  });
});
