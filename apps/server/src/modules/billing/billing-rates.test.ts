import type { ClientMonthRate } from "@vigil/contract";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { billingRateChanges, billingRates } from "../../db/schema.js";
import {
  billingBase,
  clientIn,
  issueStatement,
  logTime,
  monitoredCase,
  putInStage,
  reportBase,
  setRate,
} from "../../testing/kits/billing-kit.js";
import { auditRows, type Team, teamFor, unknownId } from "../../testing/kits/cases-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

let harness: TestApp;
let team: Team;

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "rates");
});
afterAll(() => harness.close());

function changesOf(clientId: string, month: string) {
  return harness.database.db
    .select()
    .from(billingRateChanges)
    .where(and(eq(billingRateChanges.clientId, clientId), eq(billingRateChanges.month, month)))
    .orderBy(asc(billingRateChanges.version));
}

describe("setting a month's rate", () => {
  it("stores the rate as money, names the version it replaces, and refuses a stale one with 409", async () => {
    const client = await clientIn(team, "America/Denver");
    const created = await setRate(team.billing, client.id, "2026-05", "120.5");
    expect(created.statusCode, created.body).toBe(200);
    const first: ClientMonthRate = created.json().data;
    expect(first).toMatchObject({
      clientId: client.id,
      month: "2026-05",
      hourlyRate: "120.50",
      version: 1,
      reason: null,
      setBy: { username: team.billing.username, name: `${team.billing.username} Tester` },
    });

    const unaware = await setRate(team.billing, client.id, "2026-05", "130");
    expect(unaware.statusCode).toBe(409);
    expect(unaware.json().error).toMatchObject({ code: "conflict", details: { current: { version: 1 } } });
    expect(unaware.json().error.details.current.hourlyRate).toBe("120.50");

    const second = await setRate(team.billing, client.id, "2026-05", "130", { baseVersion: 1 });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().data).toMatchObject({ hourlyRate: "130.00", version: 2 });
    const stale = await setRate(team.billing, client.id, "2026-05", "140", { baseVersion: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.details.current).toMatchObject({ version: 2, hourlyRate: "130.00" });
    const phantom = await setRate(team.billing, client.id, "2026-06", "140", { baseVersion: 3 });
    expect(phantom.statusCode).toBe(409);
    expect(phantom.json().error.details.current).toBeNull();

    const [stored] = await harness.database.db.select().from(billingRates).where(eq(billingRates.clientId, client.id));
    expect(stored).toMatchObject({ month: "2026-05", hourlyRate: "130.00", version: 2 });
    expect(
      (await changesOf(client.id, "2026-05")).map((row) => [row.version, row.hourlyRate, row.previousRate]),
    ).toEqual([
      [1, "120.50", null],
      [2, "130.00", "120.50"],
    ]);
    const audits = await auditRows(harness, "billing.rate.set", client.id);
    expect(audits).toHaveLength(2);
    expect(audits[1]).toMatchObject({ outcome: "success", actorUsername: team.billing.username, targetType: "client" });
    expect(audits[1]?.details).toMatchObject({ month: "2026-05", hourlyRate: "130.00", previousRate: "120.50" });
  });

  it("needs a reason once the month's statement is issued, and keeps it with the change", async () => {
    const client = await clientIn(team, "America/Denver");
    const subject = await monitoredCase(harness, team, client.id);
    await logTime(team.technologist, subject.id, "2026-04-10T15:00:00.000Z", "2026-04-10T19:00:00.000Z");
    expect((await setRate(team.billing, client.id, "2026-04", "100")).statusCode).toBe(200);
    // Closing the case is not invoicing: the rate still changes without a reason until a statement is issued.
    await putInStage(harness, subject.id, "closed");
    const beforeIssue = await setRate(team.billing, client.id, "2026-04", "100", { baseVersion: 1 });
    expect(beforeIssue.statusCode, beforeIssue.body).toBe(200);
    const issued = await issueStatement(team.billing, client.id, "2026-04");
    expect(issued.statusCode, issued.body).toBe(201);

    const overviewRow = (
      await team.billing("GET", `${billingBase}?clientId=${client.id}&from=2026-04&to=2026-04`)
    ).json().data.items[0];
    expect(overviewRow).toMatchObject({ invoiced: true, statementNumber: 1, amount: "400.00" });

    const silent = await setRate(team.billing, client.id, "2026-04", "110", { baseVersion: 2 });
    expect(silent.statusCode).toBe(400);
    expect(silent.json().error).toMatchObject({
      code: "bad_request",
      message: "A reason is required: this rate applies to months already invoiced: 2026-04 (statement No. 1)",
    });
    expect(silent.json().error.details.issues[0].path).toBe("body.reason");
    const blank = await setRate(team.billing, client.id, "2026-04", "110", { baseVersion: 2, reason: "   " });
    expect(blank.statusCode).toBe(400);

    const reason = "Contract amendment signed on 2 May: April re-priced";
    const explained = await setRate(team.billing, client.id, "2026-04", "110", { baseVersion: 2, reason });
    expect(explained.statusCode, explained.body).toBe(200);
    expect(explained.json().data).toMatchObject({ hourlyRate: "110.00", version: 3, reason });
    const history = await changesOf(client.id, "2026-04");
    expect(history.map((row) => [row.version, row.invoiced, row.reason])).toEqual([
      [1, false, null],
      [2, false, null],
      [3, true, reason],
    ]);
    const [audit] = (await auditRows(harness, "billing.rate.set", client.id)).slice(-1);
    expect(audit?.details).toMatchObject({ month: "2026-04", invoiced: true, reason, previousRate: "100.00" });
    // A month before the issued one needs none: April has a rate of its own, so March's does not reach it.
    expect((await setRate(team.billing, client.id, "2026-03", "90")).statusCode).toBe(200);
  });

  it("needs a reason for an earlier month's rate that an issued month inherits, and not beyond the next own rate", async () => {
    const client = await clientIn(team, "UTC");
    const subject = await monitoredCase(harness, team, client.id);
    await logTime(team.technologist, subject.id, "2026-02-10T08:00:00.000Z", "2026-02-10T10:00:00.000Z");
    expect((await setRate(team.billing, client.id, "2026-01", "100")).statusCode).toBe(200);
    expect((await issueStatement(team.billing, client.id, "2026-02")).statusCode).toBe(201);

    // February inherits January's rate, so changing January's re-prices an issued month.
    const silent = await setRate(team.billing, client.id, "2026-01", "120", { baseVersion: 1 });
    expect(silent.statusCode).toBe(400);
    expect(silent.json().error.details.issues[0]).toEqual({
      path: "body.reason",
      message: "is required: this rate applies to issued statements: 2026-02 (statement No. 1)",
    });
    // Once March has a rate of its own, a rate for March or later does not reach February.
    expect((await setRate(team.billing, client.id, "2026-03", "130")).statusCode).toBe(200);
    expect((await setRate(team.billing, client.id, "2026-03", "135", { baseVersion: 1 })).statusCode).toBe(200);
  });

  it("refuses a month more than a year ahead, a client that does not exist, and a malformed rate", async () => {
    const client = await clientIn(team, "UTC");
    const now = new Date();
    const ahead = (months: number) =>
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + months, 1)).toISOString().slice(0, 7);
    expect((await setRate(team.billing, client.id, ahead(12), "100")).statusCode).toBe(200);
    const tooFar = await setRate(team.billing, client.id, ahead(13), "100");
    expect(tooFar.statusCode).toBe(400);
    expect(tooFar.json().error.details.issues[0].path).toBe("params.month");
    expect((await setRate(team.billing, unknownId, "2026-01", "100")).statusCode).toBe(404);
    for (const hourlyRate of ["12.345", "-5", "0", "1,000"]) {
      const response = await setRate(team.billing, client.id, "2026-01", hourlyRate);
      expect(response.statusCode, hourlyRate).toBe(400);
      expect(response.json().error.details.issues[0].path).toBe("body.hourlyRate");
    }
    expect(await changesOf(client.id, "2026-01")).toHaveLength(0);
  });

  it("lets exactly one of two changes on the same base through", async () => {
    const client = await clientIn(team, "UTC");
    const responses = await Promise.all(
      ["101", "102", "103", "104"].map((rate) => setRate(team.billing, client.id, "2026-02", rate)),
    );
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409, 409, 409]);
    expect(await changesOf(client.id, "2026-02")).toHaveLength(1);
  });
});

describe("who may see and change billing", () => {
  it("keeps billing to the billing group and administrators; coordinators read reports but not billing", async () => {
    const client = await clientIn(team, "UTC");
    const subject = await monitoredCase(harness, team, client.id);
    const urls = {
      overview: billingBase,
      statement: `${billingBase}/${client.id}/2026-01`,
      check: `/cases/${subject.id}/billing-check`,
      report: `${reportBase}?from=2026-01-01&to=2026-01-31`,
    };
    const expected = {
      technologist: { overview: 403, statement: 403, check: 403, report: 403, rate: 403 },
      reviewer: { overview: 403, statement: 403, check: 403, report: 403, rate: 403 },
      coordinator: { overview: 403, statement: 403, check: 200, report: 200, rate: 403 },
      billing: { overview: 200, statement: 200, check: 200, report: 200, rate: 200 },
      admin: { overview: 200, statement: 200, check: 200, report: 200, rate: 409 },
    } as const;
    for (const [group, statuses] of Object.entries(expected)) {
      const caller = team[group as keyof typeof expected];
      for (const [name, url] of Object.entries(urls)) {
        const response = await caller("GET", url);
        expect(response.statusCode, `${group} GET ${name}`).toBe(statuses[name as keyof typeof urls]);
      }
      // The billing user sets the month first; the administrator after, on the same (stale) base.
      const rate = await setRate(caller, client.id, "2026-01", "99");
      expect(rate.statusCode, `${group} POST rate`).toBe(statuses.rate);
    }
    expect(await changesOf(client.id, "2026-01")).toHaveLength(1);
  });
});
