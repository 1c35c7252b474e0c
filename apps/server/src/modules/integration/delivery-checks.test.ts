import { type IntegrationResult, integrationResultSchema } from "@vigil/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import {
  addContact,
  findingsPath,
  monitoredCase,
  raiseFinding,
  type SmsGateway,
  startSmsGateway,
  workAt,
} from "../../testing/kits/findings-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

/**
 * The critical findings' delivery health as a self-check, against a real HTTP server standing in for the SMS
 * gateway: ok with nothing wrong, a warning (not a pass) while a message waits for its retry, failing once one
 * failed after every attempt (2 here) or waited past 15 minutes.
 */

let harness: TestApp;
let team: Team;
let gateway: SmsGateway;
let clientId: string;

beforeAll(async () => {
  gateway = await startSmsGateway(200);
  harness = await createTestApp({ SMS_WEBHOOK_URL: gateway.url, FINDING_DELIVERY_ATTEMPTS: "2" });
  team = await teamFor(harness, "health");
  clientId = (await createClient(team.coordinator)).id;
  await addContact(team.coordinator, clientId, { name: "Pat Pager", email: null, phone: "+13125550123" });
});
afterAll(async () => {
  await harness?.close();
  await gateway?.close();
});

async function check(): Promise<IntegrationResult> {
  const response = await team.developer("POST", "/api/bugs/integration-checks/finding-deliveries/run");
  expect(response.statusCode, response.body).toBe(200);
  return integrationResultSchema.parse(response.json().data);
}

describe("the critical finding messages self-check", () => {
  it("passes with nothing failed or waiting, saying where messages without a transport go", async () => {
    const result = await check();
    expect(result).toMatchObject({ status: "pass", hint: null, title: "Critical finding messages" });
    expect(result.details).toMatchObject({
      health: "ok",
      failedLastDay: 0,
      waitingRetries: 0,
      smsTransport: "sms-webhook",
      emailTransport: "outbox",
    });
    expect(result.summary).toMatch(/outbox table/);
  });

  it("is in its warning state, not a pass, while a message waits for its retry, and fails once every attempt is spent", async () => {
    gateway.answer(500);
    const subject = await monitoredCase(harness, team, clientId);
    await raiseFinding(team.technologist, subject.id);
    const t0 = new Date();
    await workAt(harness, t0);
    const warning = await check();
    expect(warning.status).toBe("warning");
    expect(warning.summary).toMatch(/^1 message\(s\) wait for a retry/);
    expect(warning.details).toMatchObject({ health: "warning", waitingRetries: 1, pending: 1 });
    expect(warning.hint).toMatch(/SMS_WEBHOOK_URL/);

    await workAt(harness, new Date(t0.getTime() + 30_000));
    const failing = await check();
    expect(failing.status).toBe("fail");
    expect(failing.summary).toMatch(/^1 message\(s\) failed after every attempt in the last 24 hours\./);
    expect(failing.details).toMatchObject({ health: "failing", failedLastDay: 1, waitingRetries: 0 });
  });

  it("fails when a message has waited past 15 minutes: no instance is sending", async () => {
    gateway.answer(200);
    // Older than the failure above, which no longer counts once it is a day old.
    await harness.database.db.execute(
      sql`update finding_deliveries set next_attempt_at = now() - interval '25 hours' where status = 'failed'`,
    );
    const subject = await monitoredCase(harness, team, clientId);
    await raiseFinding(team.technologist, subject.id);
    await harness.database.db.execute(
      sql`update finding_deliveries set created_at = now() - interval '20 minutes' where status = 'pending'`,
    );
    const stuck = await check();
    expect(stuck.status).toBe("fail");
    expect(stuck.summary).toMatch(/waited over 15 minutes/);
    expect(stuck.hint).toMatch(/FINDING_WORKER_SECONDS/);
    expect(Number(stuck.details.oldestPendingMinutes)).toBeGreaterThanOrEqual(20);

    await workAt(harness);
    expect((await check()).details).toMatchObject({ health: "ok", pending: 0 });
  });

  it("counts a message not sent because the finding was acknowledged meanwhile as not needed, never as failed", async () => {
    const subject = await monitoredCase(harness, team, clientId);
    const finding = await raiseFinding(team.technologist, subject.id);
    const acknowledged = await team.coordinator("POST", `${findingsPath(subject.id)}/${finding.id}/acknowledgement`, {
      body: { name: "Dr. Phone", acknowledgedAt: new Date().toISOString(), readBackConfirmed: true },
    });
    expect(acknowledged.statusCode, acknowledged.body).toBe(200);
    const statuses = acknowledged
      .json()
      .data.recipients.flatMap((r: { deliveries: { status: string }[] }) =>
        r.deliveries.map((delivery) => delivery.status),
      );
    expect(statuses).toEqual(["not-needed"]);
    const result = await check();
    expect(result.status).toBe("pass");
    expect(result.details).toMatchObject({ health: "ok", failedLastDay: 0, pending: 0 });
  });
});
