import type { BillingMonthRow, BillingOverview, BillingStatement } from "@vigil/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cases } from "../../db/schema.js";
import {
  billingBase,
  centiHours,
  centsFor,
  clientIn,
  issueStatement,
  logTime,
  monitoredCase,
  putInStage,
  secondsBetween,
  setRate,
  twoDecimals,
} from "../../testing/kits/billing-kit.js";
import { type Team, teamFor, unknownId } from "../../testing/kits/cases-kit.js";
import { itemPath, minutesAgo } from "../../testing/kits/records-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

let harness: TestApp;
let team: Team;

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "statements");
});
afterAll(() => harness.close());

async function statementOf(clientId: string, month: string): Promise<BillingStatement> {
  const response = await team.billing("GET", `${billingBase}/${clientId}/${month}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

async function overview(query: string): Promise<BillingOverview> {
  const response = await team.billing("GET", `${billingBase}?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

describe("a client's monthly statement", () => {
  it("totals exactly what the time logs add up to, computed independently", async () => {
    // Berlin in September 2026 is UTC+2: the month runs from 2026-08-31T22:00Z to 2026-09-30T22:00Z.
    const client = await clientIn(team, "Europe/Berlin");
    const [from, to] = ["2026-08-31T22:00:00.000Z", "2026-09-30T22:00:00.000Z"];
    const first = await monitoredCase(harness, team, client.id);
    const second = await monitoredCase(harness, team, client.id);
    const logs = {
      first: [
        ["2026-09-03T06:00:00.000Z", "2026-09-03T18:30:00.750Z"],
        ["2026-09-04T01:00:00.000Z", "2026-09-04T03:20:10.000Z"],
      ],
      second: [
        ["2026-09-10T10:00:00.000Z", "2026-09-10T10:00:59.000Z"],
        // Starts in Berlin's August, ends in its September.
        ["2026-08-31T20:00:00.000Z", "2026-08-31T23:00:07.000Z"],
        // Starts in Berlin's September, ends in its October.
        ["2026-09-30T21:59:00.000Z", "2026-09-30T23:00:00.000Z"],
      ],
    };
    for (const [start, end] of logs.first) await logTime(team.technologist, first.id, start as string, end as string);
    for (const [start, end] of logs.second) {
      await logTime(team.technologist2, second.id, start as string, end as string);
    }
    // Not billed: a log marked not billable, and a deleted one.
    await logTime(team.technologist, first.id, "2026-09-05T00:00:00.000Z", "2026-09-05T02:00:00.000Z", {
      billable: false,
    });
    const deleted = await logTime(team.technologist, first.id, "2026-09-06T00:00:00.000Z", "2026-09-06T05:00:00.000Z");
    const removal = await team.technologist("POST", itemPath("time-log", first.id, deleted.id), {
      body: { change: "delete", baseRevision: 1 },
    });
    expect(removal.statusCode, removal.body).toBe(201);
    expect((await setRate(team.billing, client.id, "2026-09", "137.35")).statusCode).toBe(200);

    const rateCents = 13735;
    const expected = [first, second]
      .map((subject, index) => {
        const pairs = index === 0 ? logs.first : logs.second;
        const seconds = pairs.reduce(
          (sum, [start, end]) => sum + secondsBetween(start as string, end as string, from, to),
          0,
        );
        const hundredths = centiHours(seconds);
        return {
          caseId: subject.id,
          caseNumber: subject.caseNumber,
          hundredths,
          cents: centsFor(hundredths, rateCents),
        };
      })
      .sort((left, right) => left.caseNumber.localeCompare(right.caseNumber));
    // The arithmetic written out once, so the integers above can be checked by eye: 45000 + 8410 s and 59 + 3607 + 60 s.
    expect(expected.map((line) => line.hundredths).sort((a, b) => a - b)).toEqual([104, 1484]);

    const statement = await statementOf(client.id, "2026-09");
    expect(statement).toMatchObject({
      client: { id: client.id, name: client.name, timezone: "Europe/Berlin" },
      month: "2026-09",
      periodStart: from,
      periodEnd: to,
      rate: { hourlyRate: "137.35", fromMonth: "2026-09", inherited: false },
      rateMissing: false,
      invoiced: false,
      provisional: false,
    });
    expect(statement.cases.map((line) => [line.caseId, line.hours, line.amount])).toEqual(
      expected.map((line) => [line.caseId, twoDecimals(line.hundredths), twoDecimals(line.cents)]),
    );
    expect(statement.cases.map((line) => line.logCount)).toEqual(
      expected.map((line) => (line.caseId === first.id ? 2 : 3)),
    );
    const totalHundredths = expected.reduce((sum, line) => sum + line.hundredths, 0);
    const totalCents = expected.reduce((sum, line) => sum + line.cents, 0);
    expect(statement.totals).toEqual({
      hours: twoDecimals(totalHundredths),
      amount: twoDecimals(totalCents),
      caseCount: 2,
    });
    expect(statement.roundingNote).toMatch(/rounded/);
    const firstLine = statement.cases.find((line) => line.caseId === first.id);
    expect(firstLine?.patientName).toMatch(/^Patient\d+, Jordan$/);
    expect(firstLine?.cpt.lines.map((line) => line.code)).toContain("95700");

    // The overview's row for the month is the statement's totals.
    const [row] = (await overview(`clientId=${client.id}&from=2026-09&to=2026-09`)).items;
    expect(row).toMatchObject({
      hours: statement.totals.hours,
      amount: statement.totals.amount,
      caseCount: 2,
      rateMissing: false,
    });
  });

  it("splits a log across a month boundary in the client's time zone between the two statements", async () => {
    // New York is UTC−4 until 1 Nov 2026 02:00, so November begins at 04:00Z: 6 h fall in October, 2 h in November.
    const client = await clientIn(team, "America/New_York");
    const subject = await monitoredCase(harness, team, client.id);
    await logTime(team.technologist, subject.id, "2026-10-31T22:00:00.000Z", "2026-11-01T06:00:00.000Z");
    const october = await statementOf(client.id, "2026-10");
    const november = await statementOf(client.id, "2026-11");
    expect(october.periodEnd).toBe("2026-11-01T04:00:00.000Z");
    expect(november.periodStart).toBe("2026-11-01T04:00:00.000Z");
    expect(october.cases).toEqual([expect.objectContaining({ caseId: subject.id, hours: "6.00", logCount: 1 })]);
    expect(november.cases).toEqual([expect.objectContaining({ caseId: subject.id, hours: "2.00", logCount: 1 })]);
    // No rate yet: flagged, never billed at zero.
    expect(october).toMatchObject({ rate: null, rateMissing: true, totals: { hours: "6.00", amount: null } });
    expect(october.cases[0]?.amount).toBeNull();
    expect(october.invoiced).toBe(false);
    // Closing the case does not invoice a month: issuing its statement does, that month only.
    await putInStage(harness, subject.id, "closed");
    expect((await statementOf(client.id, "2026-10")).invoiced).toBe(false);
    expect((await setRate(team.billing, client.id, "2026-10", "100")).statusCode).toBe(200);
    expect((await issueStatement(team.billing, client.id, "2026-10")).statusCode).toBe(201);
    expect((await statementOf(client.id, "2026-10")).invoiced).toBe(true);
    expect((await statementOf(client.id, "2026-11")).invoiced).toBe(false);
  });

  it("counts a running log up to now and marks the month provisional", async () => {
    const client = await clientIn(team, "UTC");
    const subject = await monitoredCase(harness, team, client.id);
    const start = minutesAgo(20);
    await logTime(team.technologist, subject.id, start, null);
    const month = start.slice(0, 7);
    const statement = await statementOf(client.id, month);
    expect(statement.provisional).toBe(true);
    const [line] = statement.cases;
    expect(line).toMatchObject({ caseId: subject.id, running: true, logCount: 1 });
    expect(Number(line?.hours)).toBeGreaterThanOrEqual(0.33);
    expect(Number(line?.hours)).toBeLessThan(0.4);
    const [row] = (await overview(`clientId=${client.id}&from=${month}&to=${month}`)).items;
    expect(row).toMatchObject({ provisional: true, caseCount: 1 });
  });

  it("leaves archived cases out", async () => {
    const client = await clientIn(team, "America/Chicago");
    const kept = await monitoredCase(harness, team, client.id);
    const archived = await monitoredCase(harness, team, client.id);
    await logTime(team.technologist, kept.id, "2026-07-02T12:00:00.000Z", "2026-07-02T14:00:00.000Z");
    await logTime(team.technologist, archived.id, "2026-07-03T12:00:00.000Z", "2026-07-03T14:00:00.000Z");
    await harness.database.db.update(cases).set({ archivedAt: new Date() }).where(eq(cases.id, archived.id));
    const statement = await statementOf(client.id, "2026-07");
    expect(statement.cases.map((line) => line.caseId)).toEqual([kept.id]);
    expect(statement.totals.hours).toBe("2.00");
  });

  it("totals each overview month in the database exactly as the statement adds up its rounded lines", async () => {
    const client = await clientIn(team, "UTC");
    const [finished, finishedAndRunning, runningOnly, archived] = [
      await monitoredCase(harness, team, client.id),
      await monitoredCase(harness, team, client.id),
      await monitoredCase(harness, team, client.id),
      await monitoredCase(harness, team, client.id),
    ];
    // Everything within the last quarter hour, so all of it is in this month unless one has just begun; lengths
    // whose hundredths round up (18 s is 0.005 h) at a rate whose cents round too.
    const month = minutesAgo(15).slice(0, 7);
    await logTime(team.technologist2, finishedAndRunning.id, minutesAgo(15), null);
    await logTime(team.technologist, runningOnly.id, minutesAgo(14), null);
    await logTime(team.technologist, finished.id, minutesAgo(13), minutesAgo(12.7));
    await logTime(team.technologist, finishedAndRunning.id, minutesAgo(12), minutesAgo(11.7));
    await logTime(team.technologist, archived.id, minutesAgo(11), minutesAgo(1));
    await harness.database.db.update(cases).set({ archivedAt: new Date() }).where(eq(cases.id, archived.id));
    expect((await setRate(team.billing, client.id, month, "123.45")).statusCode).toBe(200);

    // The running logs move on between the two reads; a pair read across a 36 s step of hundredths is read again.
    let pair: [BillingStatement, BillingMonthRow | undefined] | undefined;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const statement = await statementOf(client.id, month);
      const [row] = (await overview(`clientId=${client.id}&from=${month}&to=${month}`)).items;
      pair = [statement, row];
      if (row?.hours === statement.totals.hours) break;
    }
    const [statement, row] = pair as [BillingStatement, BillingMonthRow];
    expect(statement.cases.map((line) => line.caseId).sort()).toEqual(
      [finished.id, finishedAndRunning.id, runningOnly.id].sort(),
    );
    expect(statement.cases.filter((line) => line.running)).toHaveLength(2);
    expect(row).toMatchObject({
      caseCount: 3,
      provisional: true,
      hours: statement.totals.hours,
      amount: statement.totals.amount,
    });
  });

  it("audits each read of a statement under its client, as patient data", async () => {
    const client = await clientIn(team, "UTC");
    await statementOf(client.id, "2026-09");
    const audit = await team.admin("GET", `/api/audit?clientId=${client.id}&action=patient-data.read`);
    expect(audit.statusCode, audit.body).toBe(200);
    const reads = audit.json().data.items;
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatchObject({
      outcome: "success",
      target: { type: "client", id: client.id },
      details: { route: "getBillingStatement", clientId: client.id },
    });
  });

  it("answers 404 for an unknown client and 400 for a month that is not YYYY-MM", async () => {
    expect((await team.billing("GET", `${billingBase}/${unknownId}/2026-09`)).statusCode).toBe(404);
    const client = await clientIn(team, "UTC");
    const bad = await team.billing("GET", `${billingBase}/${client.id}/2026-13`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.issues[0].path).toBe("params.month");
  });
});

describe("the clients × months overview", () => {
  it("shows an inherited rate, flags a month with hours and no rate at all, and lists months without hours", async () => {
    const priced = await clientIn(team, "Asia/Tokyo", "Alpha Overview Hospital");
    const unpriced = await clientIn(team, "Asia/Tokyo", "Bravo Overview Hospital");
    for (const client of [priced, unpriced]) {
      const subject = await monitoredCase(harness, team, client.id);
      // 2026-08-10 09:00–12:00 in Tokyo.
      await logTime(team.technologist, subject.id, "2026-08-10T00:00:00.000Z", "2026-08-10T03:00:00.000Z");
    }
    expect((await setRate(team.billing, priced.id, "2026-06", "150")).statusCode).toBe(200);

    const mine = (page: BillingOverview) =>
      page.items.filter((row) => row.clientId === priced.id || row.clientId === unpriced.id);
    const page = await overview("from=2026-05&to=2026-09&limit=200");
    expect(page).toMatchObject({ from: "2026-05", to: "2026-09" });
    const rows = mine(page);
    const find = (clientId: string, month: string) =>
      rows.find((row) => row.clientId === clientId && row.month === month) as BillingMonthRow;
    expect(rows).toHaveLength(10);
    expect(find(priced.id, "2026-08")).toMatchObject({
      hours: "3.00",
      caseCount: 1,
      rate: { hourlyRate: "150.00", fromMonth: "2026-06", inherited: true },
      ownRate: null,
      amount: "450.00",
      rateMissing: false,
      invoiced: false,
      provisional: false,
      clientTimezone: "Asia/Tokyo",
    });
    expect(find(priced.id, "2026-06")).toMatchObject({
      hours: "0.00",
      caseCount: 0,
      rate: { hourlyRate: "150.00", inherited: false },
      ownRate: { month: "2026-06", hourlyRate: "150.00", version: 1, setBy: { username: team.billing.username } },
      amount: "0.00",
    });
    expect(find(priced.id, "2026-05")).toMatchObject({ rate: null, rateMissing: false, amount: null });
    expect(find(unpriced.id, "2026-08")).toMatchObject({ hours: "3.00", rate: null, amount: null, rateMissing: true });
    expect(find(unpriced.id, "2026-07")).toMatchObject({ hours: "0.00", rateMissing: false });

    // Month descending, then client name.
    expect(rows.map((row) => `${row.month} ${row.clientName}`).slice(0, 4)).toEqual([
      "2026-09 Alpha Overview Hospital",
      "2026-09 Bravo Overview Hospital",
      "2026-08 Alpha Overview Hospital",
      "2026-08 Bravo Overview Hospital",
    ]);

    const flagged = await overview("from=2026-08&to=2026-08&missingRate=true");
    expect(flagged.items.map((row) => row.clientId)).toContain(unpriced.id);
    expect(flagged.items.every((row) => row.rateMissing)).toBe(true);
    expect(flagged.totals.monthsWithoutRate).toBe(flagged.total);
    expect(flagged.totals.amount).toBe("0.00");
  });

  it("pages the rows and totals every matching row, not just the page", async () => {
    const client = await clientIn(team, "UTC", "Charlie Paging Clinic");
    const subject = await monitoredCase(harness, team, client.id);
    await logTime(team.technologist, subject.id, "2026-03-02T00:00:00.000Z", "2026-03-02T01:30:00.000Z");
    await logTime(team.technologist, subject.id, "2026-04-02T00:00:00.000Z", "2026-04-02T02:15:00.000Z");
    expect((await setRate(team.billing, client.id, "2026-03", "100")).statusCode).toBe(200);
    const query = `clientId=${client.id}&from=2026-01&to=2026-04`;
    const all = await overview(query);
    expect(all.total).toBe(4);
    expect(all.items.map((row) => row.month)).toEqual(["2026-04", "2026-03", "2026-02", "2026-01"]);
    expect(all.totals).toEqual({ hours: "3.75", amount: "375.00", monthsWithoutRate: 0 });
    const second = await overview(`${query}&limit=1&offset=1`);
    expect(second).toMatchObject({ total: 4, limit: 1, offset: 1, totals: all.totals });
    expect(second.items.map((row) => row.month)).toEqual(["2026-03"]);
  });

  it("defaults to the 12 months ending with the current month, and refuses a range that runs backwards", async () => {
    const client = await clientIn(team, "UTC");
    const page = await overview(`clientId=${client.id}`);
    const current = new Date().toISOString().slice(0, 7);
    expect(page.to).toBe(current);
    expect(page.total).toBe(12);
    expect(page.items[0]?.month).toBe(current);
    const backwards = await team.billing("GET", `${billingBase}?from=2026-05&to=2026-01`);
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().error.details.issues[0].path).toBe("querystring.from");
    expect((await team.billing("GET", `${billingBase}?clientId=${unknownId}`)).statusCode).toBe(404);
  });
});
