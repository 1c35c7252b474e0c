import type { BillingCheck, Case } from "@vigil/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientIn, logTime, monitoredCase, putInStage, setRate } from "../../testing/kits/billing-kit.js";
import { type Team, teamFor, unknownId } from "../../testing/kits/cases-kit.js";
import {
  collectionOf,
  createItem,
  itemPath,
  minutesAgo,
  sampleBillingNote,
  sampleEvent,
} from "../../testing/kits/records-kit.js";
import { storeSignedReport } from "../../testing/kits/reports-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

let harness: TestApp;
let team: Team;

beforeAll(async () => {
  // A continuous cap of 1, so two overlapping cases of one technologist are over it.
  harness = await createTestApp({ TECHNOLOGIST_CAP_CONTINUOUS: "1" });
  team = await teamFor(harness, "check");
});
afterAll(() => harness.close());

async function checkOf(caseId: string): Promise<BillingCheck> {
  const response = await team.billing("GET", `/cases/${caseId}/billing-check`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

const failing = (check: BillingCheck) => check.checks.filter((item) => !item.passed).map((item) => item.id);
const close = (caseId: string) => team.billing("POST", `/cases/${caseId}/transitions`, { body: { to: "closed" } });

describe("the billing check of reviewed → closed", () => {
  it("fails on each missing part in words, then passes and the case closes", async () => {
    const client = await clientIn(team, "Australia/Sydney", "Echo Billing Check Hospital");
    const subject = await monitoredCase(harness, team, client.id);
    // Intermittent monitoring for 5 hours without a review check, still running; a non-billable log runs too.
    const start = minutesAgo(300);
    await logTime(team.technologist, subject.id, start, null, { mode: "intermittent", video: false });
    await logTime(team.technologist2, subject.id, minutesAgo(30), null, { billable: false, activity: "other" });
    await putInStage(harness, subject.id, "reviewed");

    const first = await checkOf(subject.id);
    expect(first.passed).toBe(false);
    expect(failing(first)).toEqual(["no-running-time-log", "rate-known", "cpt-warnings-acknowledged", "report-signed"]);
    const messages = Object.fromEntries(first.checks.map((item) => [item.id, item.message]));
    expect(messages["no-running-time-log"]).toMatch(
      /^2 time logs are still running \(.*monitoring log since .* Australia\/Sydney/,
    );
    const months = first.months.map((entry) => entry.month);
    expect(months.length).toBeGreaterThanOrEqual(1);
    expect(messages["rate-known"]).toBe(`No rate for ${months.join(", ")} (Echo Billing Check Hospital)`);
    expect(messages["cpt-warnings-acknowledged"]).toMatch(
      /^CPT warnings not acknowledged in a billing note: .*review-check-gap/,
    );
    expect(messages["report-signed"]).toMatch(/^No signed report is stored for CM-/);
    expect(first.cpt.warnings.map((warning) => warning.id)).toEqual(["review-check-gap"]);
    expect(first.months.every((entry) => entry.rate === null)).toBe(true);
    expect(first.acknowledgedWarnings).toEqual([]);

    const refused = await close(subject.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.details.failedChecks).toEqual(["billing-check-passed"]);
    const message: string = refused.json().error.message;
    expect(message).toContain("The billing check has not passed: 2 time logs are still running (");
    expect(message).toMatch(
      /; No rate for .* \(Echo Billing Check Hospital\); CPT warnings not acknowledged in a billing note: /,
    );

    // (1) Clock both logs out (in monitoring, where time logs are written).
    await putInStage(harness, subject.id, "monitoring");
    for (const technologist of [team.technologist, team.technologist2]) {
      const stopped = await technologist("POST", `${collectionOf("time-log", subject.id)}/latest/revisions`, {
        body: { change: "clock-out" },
      });
      expect(stopped.statusCode, stopped.body).toBe(201);
    }
    await putInStage(harness, subject.id, "reviewed");
    expect(failing(await checkOf(subject.id))).toEqual(["rate-known", "cpt-warnings-acknowledged", "report-signed"]);

    // (2) A rate on the first month the log touches, inherited by any later one.
    expect((await setRate(team.billing, client.id, months[0] as string, "180")).statusCode).toBe(200);
    const priced = await checkOf(subject.id);
    expect(failing(priced)).toEqual(["cpt-warnings-acknowledged", "report-signed"]);
    expect(priced.months[0]?.rate).toMatchObject({ hourlyRate: "180.00", inherited: false });

    // (3) A billing note acknowledging another warning does not do; a deleted one does not count.
    await createItem(
      team.billing,
      "billing-note",
      subject.id,
      sampleBillingNote({ acknowledgedWarnings: ["under-2-hours"] }),
    );
    const deletedNote = await createItem(
      team.billing,
      "billing-note",
      subject.id,
      sampleBillingNote({ acknowledgedWarnings: ["review-check-gap"] }),
    );
    const removal = await team.billing("POST", itemPath("billing-note", subject.id, deletedNote.id), {
      body: { change: "delete", baseRevision: 1 },
    });
    expect(removal.statusCode, removal.body).toBe(201);
    const partly = await checkOf(subject.id);
    expect(failing(partly)).toEqual(["cpt-warnings-acknowledged", "report-signed"]);
    expect(partly.acknowledgedWarnings).toEqual(["under-2-hours"]);

    await createItem(
      team.billing,
      "billing-note",
      subject.id,
      sampleBillingNote({ body: "Reviewed the gaps with the lab.", acknowledgedWarnings: ["review-check-gap"] }),
    );
    expect(failing(await checkOf(subject.id))).toEqual(["report-signed"]);

    // (4) A signed report stored for the case: the same fact its Reports list shows.
    await storeSignedReport(harness, team, subject.id);
    const passed = await checkOf(subject.id);
    expect(passed).toMatchObject({ caseId: subject.id, passed: true });
    expect(passed.checks.every((item) => item.message === null)).toBe(true);
    expect(passed.acknowledgedWarnings).toEqual(["under-2-hours", "review-check-gap"]);

    const asCase: Case = (await team.billing("GET", `/cases/${subject.id}`)).json().data;
    expect(asCase.allowedTransitions.find((move) => move.to === "closed")).toMatchObject({ allowed: true });
    const closed = await close(subject.id);
    expect(closed.statusCode, closed.body).toBe(201);
    expect(closed.json().data.case.stage).toBe("closed");
  });

  it("asks for the technologist-cap warning to be acknowledged when concurrent patients went over the cap", async () => {
    const client = await clientIn(team, "UTC");
    const [subject, other] = [
      await monitoredCase(harness, team, client.id),
      await monitoredCase(harness, team, client.id),
    ];
    await logTime(team.technologist, subject.id, "2026-06-01T08:00:00.000Z", "2026-06-01T12:00:00.000Z");
    await logTime(team.technologist, other.id, "2026-06-01T10:00:00.000Z", "2026-06-01T14:00:00.000Z");
    expect((await setRate(team.billing, client.id, "2026-06", "150")).statusCode).toBe(200);
    await putInStage(harness, subject.id, "reviewed");
    const check = await checkOf(subject.id);
    expect(failing(check)).toEqual(["cpt-warnings-acknowledged", "report-signed"]);
    expect(check.cpt.warnings.map((warning) => warning.id)).toEqual(["technologist-cap-exceeded"]);
    expect(check.months).toEqual([
      { month: "2026-06", hours: "4.00", rate: { hourlyRate: "150.00", fromMonth: "2026-06", inherited: false } },
    ]);
    // The statement's CPT suggestion for the case carries the same warning.
    const statement = (await team.billing("GET", `/api/billing/continuous-monitoring/${client.id}/2026-06`)).json()
      .data;
    const line = statement.cases.find((candidate: { caseId: string }) => candidate.caseId === subject.id);
    expect(line.cpt.warnings.map((warning: { id: string }) => warning.id)).toEqual(["technologist-cap-exceeded"]);
  });

  it("counts each case's own review-check events: checks within two hours clear the review-check gap", async () => {
    const client = await clientIn(team, "UTC");
    const [checked, unchecked] = [
      await monitoredCase(harness, team, client.id),
      await monitoredCase(harness, team, client.id),
    ];
    for (const subject of [checked, unchecked])
      await logTime(team.technologist, subject.id, "2026-07-01T08:00:00.000Z", "2026-07-01T13:00:00.000Z", {
        mode: "intermittent",
        video: false,
      });
    // 08:00 → 09:30 → 11:15 → 13:00: no stretch over two hours, on the checked case only.
    for (const occurredAt of ["2026-07-01T09:30:00.000Z", "2026-07-01T11:15:00.000Z"])
      await createItem(team.technologist, "event", checked.id, sampleEvent({ type: "review-check", occurredAt }));
    await putInStage(harness, checked.id, "reviewed");
    expect((await checkOf(checked.id)).cpt.warnings).toEqual([]);

    const statement = (await team.billing("GET", `/api/billing/continuous-monitoring/${client.id}/2026-07`)).json()
      .data;
    const warningsOf = (caseId: string) =>
      statement.cases
        .find((candidate: { caseId: string }) => candidate.caseId === caseId)
        .cpt.warnings.map((warning: { id: string }) => warning.id);
    expect(warningsOf(checked.id)).toEqual([]);
    expect(warningsOf(unchecked.id)).toEqual(["review-check-gap"]);
  });

  it("answers 404 for an unknown case", async () => {
    expect((await team.billing("GET", `/cases/${unknownId}/billing-check`)).statusCode).toBe(404);
  });
});
