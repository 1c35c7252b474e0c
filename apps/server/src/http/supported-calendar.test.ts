import type { ErrorIssue } from "@vigil/contract";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { billingBase, clientIn, logTime, monitoredCase, reportBase } from "../testing/kits/billing-kit.js";
import { base, sampleCase, type Team, teamFor } from "../testing/kits/cases-kit.js";
import { collectionOf, sampleTimeLog } from "../testing/kits/records-kit.js";
import { createTestApp, type TestApp } from "../testing/test-app.js";

/**
 * Months, days and instants outside 1900–2200 are refused by the contract with a 400 naming the field. Before, year 0
 * and the month 9999-12 (which ends in year 10000) reached PostgreSQL and came back as 500s ("date/time field value
 * out of range"). Answers derived at the edges in a client's time zone must still pass their own schemas.
 */
let harness: TestApp;
let team: Team;
let clientId: string;

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "calendar");
  // West of UTC, so the first supported instant falls in the local December of 1899.
  clientId = (await clientIn(team, "America/Chicago")).id;
});
afterAll(() => harness.close());

function expectRefused(response: LightMyRequestResponse, path: string, message: RegExp): void {
  expect(response.statusCode, response.body).toBe(400);
  const issues: ErrorIssue[] = response.json().error.details.issues;
  expect(issues.map((issue) => issue.path)).toContain(path);
  expect(issues.find((issue) => issue.path === path)?.message).toMatch(message);
}

const monthRange = /must be a month between 1900-01 and 2200-12/;
const dayRange = /must be a date between 1900-01-01 and 2200-12-31/;
const instantRange = /must be between 1900-01-01T00:00:00Z and 2200-12-31T23:59:59Z/;

describe("months outside 1900-01 … 2200-12", () => {
  it("refuses the statement of 0000-01 and 9999-12 with a 400 naming the month", async () => {
    for (const month of ["0000-01", "9999-12", "1899-12", "2201-01"]) {
      expectRefused(await team.billing("GET", `${billingBase}/${clientId}/${month}`), "params.month", monthRange);
    }
  });

  it("refuses a rate for 0000-01 and writes nothing", async () => {
    const response = await team.billing("POST", `${billingBase}/${clientId}/0000-01/rate`, {
      body: { hourlyRate: "100", baseVersion: null },
    });
    expectRefused(response, "params.month", monthRange);
    const overview = await team.billing("GET", `${billingBase}?from=1900-01&to=1900-12&clientId=${clientId}`);
    expect(overview.statusCode, overview.body).toBe(200);
    const rows: { month: string; ownRate: unknown }[] = overview.json().data.items;
    expect(rows.find((row) => row.month === "1900-01")?.ownRate).toBeNull();
    expect(rows.filter((row) => row.ownRate !== null)).toEqual([]);
  });

  it("refuses a billing overview from 0000-01 or to 9999-12", async () => {
    expectRefused(await team.billing("GET", `${billingBase}?from=0000-01`), "querystring.from", monthRange);
    expectRefused(await team.billing("GET", `${billingBase}?to=9999-12`), "querystring.to", monthRange);
  });

  it("serves the first and last supported months, their bounds given in UTC past the edge", async () => {
    const first = await team.billing("GET", `${billingBase}/${clientId}/1900-01`);
    expect(first.statusCode, first.body).toBe(200);
    // Chicago kept local mean time until 1883 and then UTC-6: January 1900 starts at 06:00 UTC.
    expect(first.json().data.periodStart).toBe("1900-01-01T06:00:00.000Z");
    const last = await team.billing("GET", `${billingBase}/${clientId}/2200-12`);
    expect(last.statusCode, last.body).toBe(200);
    expect(last.json().data.periodEnd).toBe("2201-01-01T06:00:00.000Z");
  });

  it("starts the default overview range no earlier than 1900-01", async () => {
    const response = await team.billing("GET", `${billingBase}?to=1900-03&clientId=${clientId}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.from).toBe("1900-01");
    expect(
      response
        .json()
        .data.items.map((row: { month: string }) => row.month)
        .sort(),
    ).toEqual(["1900-01", "1900-02", "1900-03"]);
  });
});

describe("days outside 1900-01-01 … 2200-12-31", () => {
  it("refuses a billable-hours report from 0000-01-01 with a 400 naming the day", async () => {
    expectRefused(
      await team.billing("GET", `${reportBase}?from=0000-01-01&to=0000-01-31`),
      "querystring.from",
      dayRange,
    );
    expectRefused(await team.billing("GET", `${reportBase}?from=9999-12-01&to=9999-12-31`), "querystring.to", dayRange);
  });

  it("serves a report of the first supported days", async () => {
    const response = await team.billing("GET", `${reportBase}?from=1900-01-01&to=1900-01-31&groupBy=day`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.rows).toHaveLength(31);
  });

  it("refuses a date of birth in year 0 with a 400 naming the field", async () => {
    const body = sampleCase(clientId);
    const response = await team.coordinator("POST", `${base}/cases`, {
      body: { ...body, patient: { ...body.patient, dateOfBirth: "0000-01-01" } },
    });
    expectRefused(response, "body.patient.dateOfBirth", dayRange);
  });
});

describe("instants outside 1900 … 2200 (UTC)", () => {
  it("refuses an audit search from 0000-01-01T00:00:00Z with a 400 naming the field", async () => {
    expectRefused(await team.admin("GET", "/api/audit?from=0000-01-01T00:00:00Z"), "querystring.from", instantRange);
    expectRefused(await team.admin("GET", "/api/audit?to=9999-12-31T23:59:59Z"), "querystring.to", instantRange);
    const edge = await team.admin("GET", "/api/audit?from=1900-01-01T00:00:00Z&to=2200-12-31T23:59:59Z");
    expect(edge.statusCode, edge.body).toBe(200);
  });

  it("refuses an instant written in 1900 whose offset puts it in 1899", async () => {
    const caseId = (await monitoredCase(harness, team, clientId)).id;
    const response = await team.technologist("POST", collectionOf("time-log", caseId), {
      body: sampleTimeLog({ startedAt: "1900-01-01T05:00:00+06:00", endedAt: null }),
    });
    expectRefused(response, "body.startedAt", instantRange);
  });

  it("answers the billing check of a case logged at the first supported instant, whose local month is 1899-12", async () => {
    const caseId = (await monitoredCase(harness, team, clientId)).id;
    await logTime(team.technologist, caseId, "1900-01-01T00:00:00.000Z", "1900-01-01T08:00:00.000Z");
    const response = await team.billing("GET", `${base}/cases/${caseId}/billing-check`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.months.map((month: { month: string }) => month.month)).toEqual(["1899-12", "1900-01"]);
  });
});
