import type { BillingOverview, BillingStatement, IssuedStatement } from "@vigil/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { billingStatementLines, billingStatements } from "../../db/schema.js";
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
import { auditRows, type Team, teamFor, unknownId } from "../../testing/kits/cases-kit.js";
import { itemPath } from "../../testing/kits/records-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

let harness: TestApp;
let team: Team;

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "issuing");
});
afterAll(() => harness.close());

async function statementOf(clientId: string, month: string): Promise<{ data: BillingStatement; etag: string }> {
  const response = await team.billing("GET", `${billingBase}/${clientId}/${month}`);
  expect(response.statusCode, response.body).toBe(200);
  return { data: response.json().data, etag: String(response.headers.etag) };
}

function issue(clientId: string, month: string, ifMatch?: string) {
  return team.billing("POST", `${billingBase}/${clientId}/${month}/statement`, ifMatch ? { ifMatch } : {});
}

async function storedStatements(clientId: string) {
  return harness.database.db.select().from(billingStatements).where(eq(billingStatements.clientId, clientId));
}

/** A client in UTC with one case of 3 h in June 2026 at 150.00 an hour: 450.00. */
async function billedJune() {
  const client = await clientIn(team, "UTC");
  const subject = await monitoredCase(harness, team, client.id);
  await logTime(team.technologist, subject.id, "2026-06-10T08:00:00.000Z", "2026-06-10T11:00:00.000Z");
  expect((await setRate(team.billing, client.id, "2026-06", "150")).statusCode).toBe(200);
  return { client, subject };
}

describe("issuing a monthly statement", () => {
  it("stores a numbered statement exactly as shown, and a repeated request answers the same one", async () => {
    const { client, subject } = await billedJune();
    const live = await statementOf(client.id, "2026-06");
    expect(live.data).toMatchObject({ invoiced: false, issued: null, changesSinceIssue: null, issueRefusal: null });
    expect(live.etag).toBe(`"${live.data.fingerprint}"`);

    const first = await issue(client.id, "2026-06", live.etag);
    expect(first.statusCode, first.body).toBe(201);
    const issued: IssuedStatement = first.json().data;
    expect(issued).toMatchObject({
      number: 1,
      client: { id: client.id, name: client.name, timezone: "UTC" },
      month: "2026-06",
      currency: "USD",
      rate: { hourlyRate: "150.00", fromMonth: "2026-06", inherited: false },
      totals: { hours: "3.00", amount: "450.00", caseCount: 1 },
      issuedBy: { username: team.billing.username },
    });
    expect(issued.lines).toEqual([
      {
        caseId: subject.id,
        caseNumber: subject.caseNumber,
        patientName: live.data.cases[0]?.patientName,
        stage: "monitoring",
        hours: "3.00",
        amount: "450.00",
        logCount: 1,
        cpt: live.data.cases[0]?.cpt,
      },
    ]);

    // A double click: the same figures named again answer the same statement, and nothing more is written.
    const again = await issue(client.id, "2026-06", live.etag);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().data).toEqual(issued);
    expect(await storedStatements(client.id)).toHaveLength(1);
    const audits = await auditRows(harness, "billing.statement.issued", client.id);
    expect(audits).toHaveLength(1);
    expect(audits[0]?.details).toMatchObject({ month: "2026-06", number: 1, amount: "450.00", currency: "USD" });

    const after = await statementOf(client.id, "2026-06");
    expect(after.data).toMatchObject({ invoiced: true, issued, changesSinceIssue: { lines: [], amount: "0.00" } });
    expect(after.data.issueRefusal).toContain("Statement No. 1 has been issued");
    const [row] = (
      (await team.billing("GET", `${billingBase}?clientId=${client.id}&from=2026-06&to=2026-06`)).json()
        .data as BillingOverview
    ).items;
    expect(row).toMatchObject({ invoiced: true, statementNumber: 1 });
  });

  it("numbers a client's statements 1, 2, 3 in the order issued, each client on its own", async () => {
    const client = await clientIn(team, "UTC");
    const other = await clientIn(team, "UTC");
    for (const [owner, month] of [
      [client, "2026-03"],
      [client, "2026-01"],
      [other, "2026-02"],
      [client, "2026-02"],
    ] as const) {
      const subject = await monitoredCase(harness, team, owner.id);
      await logTime(team.technologist, subject.id, `${month}-05T08:00:00.000Z`, `${month}-05T09:00:00.000Z`);
      if ((await statementOf(owner.id, month)).data.rate === null) await setRate(team.billing, owner.id, month, "90");
      expect((await issueStatement(team.billing, owner.id, month)).statusCode).toBe(201);
    }
    const numbers = (await storedStatements(client.id)).map((row) => [row.month, row.number]);
    expect(numbers.sort()).toEqual([
      ["2026-01", 2],
      ["2026-02", 3],
      ["2026-03", 1],
    ]);
    expect((await storedStatements(other.id)).map((row) => row.number)).toEqual([1]);
  });

  it("issues one statement when two requests race", async () => {
    const { client } = await billedJune();
    const { etag } = await statementOf(client.id, "2026-06");
    const answers = await Promise.all([issue(client.id, "2026-06", etag), issue(client.id, "2026-06", etag)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201]);
    expect(answers[0]?.json().data.id).toBe(answers[1]?.json().data.id);
    expect(await storedStatements(client.id)).toHaveLength(1);
  });

  it("refuses without If-Match, with figures that changed since they were read, and once issued with others", async () => {
    const { client, subject } = await billedJune();
    const missing = await issue(client.id, "2026-06");
    expect(missing.statusCode).toBe(428);
    const malformed = await issue(client.id, "2026-06", '"not a fingerprint!"');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.details.issues[0].path).toBe("headers.if-match");

    const seen = await statementOf(client.id, "2026-06");
    await logTime(team.technologist, subject.id, "2026-06-11T08:00:00.000Z", "2026-06-11T09:00:00.000Z");
    const stale = await issue(client.id, "2026-06", seen.etag);
    expect(stale.statusCode).toBe(412);
    expect(stale.json().error.code).toBe("precondition_failed");
    const current = await statementOf(client.id, "2026-06");
    expect(stale.headers.etag).toBe(current.etag);
    expect(await storedStatements(client.id)).toHaveLength(0);

    expect((await issue(client.id, "2026-06", current.etag)).statusCode).toBe(201);
    await logTime(team.technologist, subject.id, "2026-06-12T08:00:00.000Z", "2026-06-12T09:00:00.000Z");
    const later = await statementOf(client.id, "2026-06");
    const twice = await issue(client.id, "2026-06", later.etag);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.message).toContain("Statement No. 1 was already issued for 2026-06");
    expect(twice.json().error.details.current.totals).toEqual({ hours: "4.00", amount: "600.00", caseCount: 1 });
    expect(await storedStatements(client.id)).toHaveLength(1);
  });

  it("refuses a month without a rate, without hours, or with a time log still running", async () => {
    const client = await clientIn(team, "UTC");
    const subject = await monitoredCase(harness, team, client.id);
    const empty = await statementOf(client.id, "2026-05");
    expect(empty.data.issueRefusal).toBe("There is no billable time in this month to bill.");
    expect((await issue(client.id, "2026-05", empty.etag)).statusCode).toBe(409);

    await logTime(team.technologist, subject.id, "2026-05-10T08:00:00.000Z", "2026-05-10T09:00:00.000Z");
    const unpriced = await statementOf(client.id, "2026-05");
    expect(unpriced.data.issueRefusal).toContain("No hourly rate applies to this month");
    const refused = await issue(client.id, "2026-05", unpriced.etag);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(unpriced.data.issueRefusal);

    // A log running now: this month's hours still grow.
    const month = new Date().toISOString().slice(0, 7);
    await setRate(team.billing, client.id, month, "100");
    await logTime(team.technologist, subject.id, new Date(Date.now() - 3_600_000).toISOString(), null);
    const running = await statementOf(client.id, month);
    expect(running.data.provisional).toBe(true);
    expect(running.data.issueRefusal).toContain("still running");
    expect(await storedStatements(client.id)).toHaveLength(0);
  });

  it("refuses callers without billing:write and a client that does not exist", async () => {
    const { client } = await billedJune();
    const { etag } = await statementOf(client.id, "2026-06");
    const technologist = await team.technologist("POST", `${billingBase}/${client.id}/2026-06/statement`, {
      ifMatch: etag,
    });
    expect(technologist.statusCode).toBe(403);
    expect((await issue(unknownId, "2026-06", etag)).statusCode).toBe(404);
    expect(await storedStatements(client.id)).toHaveLength(0);
  });
});

describe("an issued statement after the month changes", () => {
  it("stays as issued through a re-opening and a rate change, and shows the differences to bill or credit", async () => {
    const client = await clientIn(team, "Europe/Berlin");
    const kept = await monitoredCase(harness, team, client.id);
    const dropped = await monitoredCase(harness, team, client.id);
    // Berlin in July 2026 is UTC+2.
    const keptLog = ["2026-07-02T06:00:00.000Z", "2026-07-02T10:20:00.000Z"] as const;
    const droppedLog = ["2026-07-03T06:00:00.000Z", "2026-07-03T07:30:00.000Z"] as const;
    await logTime(team.technologist, kept.id, ...keptLog);
    const droppedItem = await logTime(team.technologist, dropped.id, ...droppedLog);
    expect((await setRate(team.billing, client.id, "2026-07", "120.40")).statusCode).toBe(200);
    await putInStage(harness, kept.id, "closed");
    await putInStage(harness, dropped.id, "closed");
    const issued: IssuedStatement = (await issueStatement(team.billing, client.id, "2026-07")).json().data;

    // Both cases are re-opened: one gets a second log, the other's log is deleted; then July is re-priced.
    await putInStage(harness, kept.id, "monitoring");
    await putInStage(harness, dropped.id, "monitoring");
    const extraLog = ["2026-07-20T12:00:00.000Z", "2026-07-20T13:45:30.000Z"] as const;
    await logTime(team.technologist, kept.id, ...extraLog);
    const removal = await team.technologist("POST", itemPath("time-log", dropped.id, droppedItem.id), {
      body: { change: "delete", baseRevision: 1 },
    });
    expect(removal.statusCode, removal.body).toBe(201);
    const added = await monitoredCase(harness, team, client.id);
    const addedLog = ["2026-07-25T00:00:00.000Z", "2026-07-25T00:30:00.000Z"] as const;
    await logTime(team.technologist, added.id, ...addedLog);
    const rerated = await setRate(team.billing, client.id, "2026-07", "130", {
      baseVersion: 1,
      reason: "Contract amendment: July re-priced",
    });
    expect(rerated.statusCode, rerated.body).toBe(200);

    const { data } = await statementOf(client.id, "2026-07");
    // The issued statement is unchanged, and the month is still invoiced while its cases are open again.
    expect(data.issued).toEqual(issued);
    expect(data.invoiced).toBe(true);

    // Expected figures, worked out in integers: hundredths of hours and cents.
    const hundredths = (...logs: (readonly [string, string])[]) =>
      centiHours(logs.reduce((sum, [start, end]) => sum + secondsBetween(start, end), 0));
    const keptBefore = hundredths(keptLog);
    const keptNow = hundredths(keptLog, extraLog);
    const droppedBefore = hundredths(droppedLog);
    const addedNow = hundredths(addedLog);
    expect([keptBefore, keptNow, droppedBefore, addedNow]).toEqual([433, 609, 150, 50]);
    const lineOf = (caseId: string) => data.changesSinceIssue?.lines.find((line) => line.caseId === caseId);
    expect(lineOf(kept.id)).toMatchObject({
      change: "changed",
      issuedHours: twoDecimals(keptBefore),
      currentHours: twoDecimals(keptNow),
      issuedAmount: twoDecimals(centsFor(keptBefore, 12040)),
      currentAmount: twoDecimals(centsFor(keptNow, 13000)),
      hours: twoDecimals(keptNow - keptBefore),
      amount: twoDecimals(centsFor(keptNow, 13000) - centsFor(keptBefore, 12040)),
    });
    expect(lineOf(dropped.id)).toMatchObject({
      change: "removed",
      currentHours: null,
      hours: `-${twoDecimals(droppedBefore)}`,
      amount: `-${twoDecimals(centsFor(droppedBefore, 12040))}`,
    });
    expect(lineOf(added.id)).toMatchObject({
      change: "added",
      issuedHours: null,
      hours: twoDecimals(addedNow),
      amount: twoDecimals(centsFor(addedNow, 13000)),
    });
    const totalCents =
      centsFor(keptNow, 13000) +
      centsFor(addedNow, 13000) -
      centsFor(keptBefore, 12040) -
      centsFor(droppedBefore, 12040);
    expect(data.changesSinceIssue).toMatchObject({
      rateChangedTo: { hourlyRate: "130.00", fromMonth: "2026-07" },
      hours: twoDecimals(keptNow + addedNow - keptBefore - droppedBefore),
      amount: twoDecimals(totalCents),
    });
    // The totals agree: what was issued plus the differences is what the month comes to now.
    const cents = (amount: string | null) => Math.round(Number(amount) * 100);
    expect(cents(issued.totals.amount) + totalCents).toBe(cents(data.totals.amount));
  });

  it("cannot be changed or deleted in the database", async () => {
    const { client } = await billedJune();
    const issued: IssuedStatement = (await issueStatement(team.billing, client.id, "2026-06")).json().data;
    const db = harness.database.db;
    await expect(
      db.update(billingStatements).set({ totalAmount: "1.00" }).where(eq(billingStatements.id, issued.id)),
    ).rejects.toThrow();
    await expect(
      db.delete(billingStatementLines).where(eq(billingStatementLines.statementId, issued.id)),
    ).rejects.toThrow();
    await expect(db.delete(billingStatements).where(eq(billingStatements.id, issued.id))).rejects.toThrow();
    expect((await statementOf(client.id, "2026-06")).data.issued).toEqual(issued);
  });
});
