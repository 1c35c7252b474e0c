import type { CriticalFinding } from "@vigil/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor } from "../../testing/kits/caller-kit.js";
import { auditRows, createClient, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import {
  addContact,
  appOnSameDatabase,
  findingOf,
  type MailServer,
  monitoredCase,
  raiseFinding,
  type SmsGateway,
  sampleFinding,
  startMailServer,
  startSmsGateway,
  tokensIn,
  workAt,
} from "../../testing/kits/findings-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { claimDueDeliveries } from "./finding-deliveries-repository.js";

/**
 * Delivery (PRODUCT.md §11) against real peers: a real SMTP server and a real HTTP server standing in for the SMS
 * gateway, each told to refuse when a test needs it. A failed message is retried with back-off (30 s, doubling) and
 * marked failed once FINDING_DELIVERY_ATTEMPTS (3 here) are spent; the finding shows each message's state.
 */

let harness: TestApp;
let team: Team;
let clientId: string;
let gateway: SmsGateway;
let mail: MailServer;
const second = 1000;

beforeAll(async () => {
  gateway = await startSmsGateway(200);
  mail = await startMailServer();
  harness = await createTestApp({
    SMS_WEBHOOK_URL: gateway.url,
    SMTP_URL: mail.url,
    FINDING_DELIVERY_ATTEMPTS: "3",
  });
  team = await teamFor(harness, "deliver");
  clientId = (await createClient(team.coordinator)).id;
  await addContact(team.coordinator, clientId, { name: "Pat Pager", email: null, phone: "+13125550199" });
});
afterAll(async () => {
  await harness?.close();
  await gateway?.close();
  await mail?.close();
});

const deliveriesOf = (finding: CriticalFinding) => finding.recipients.flatMap((recipient) => recipient.deliveries);

async function raiseOnNewCase(options: { reviewer?: boolean } = {}) {
  const subject = await monitoredCase(harness, team, clientId, options.reviewer ? { reviewer: team.reviewer } : {});
  return { subject, finding: await raiseFinding(team.technologist, subject.id) };
}

describe("a message the SMS gateway refuses", () => {
  it("is retried after 30 s, then 60 s, and marked failed with the gateway's answer once 3 attempts are spent", async () => {
    gateway.answer(500);
    const { subject, finding } = await raiseOnNewCase();
    const t0 = new Date();
    const received = gateway.received.length;

    expect(await workAt(harness, t0)).toMatchObject({ sent: 0, retrying: 1, failed: 0 });
    let sms = deliveriesOf(await findingOf(team.coordinator, subject.id, finding.id))[0];
    expect(sms).toMatchObject({
      channel: "sms",
      status: "pending",
      attempts: 1,
      lastError: "The SMS gateway answered 500.",
      nextAttemptAt: new Date(t0.getTime() + 30 * second).toISOString(),
    });

    expect(await workAt(harness, new Date(t0.getTime() + 29 * second))).toMatchObject({ retrying: 0 });
    const t1 = new Date(t0.getTime() + 30 * second);
    expect(await workAt(harness, t1)).toMatchObject({ retrying: 1 });
    sms = deliveriesOf(await findingOf(team.coordinator, subject.id, finding.id))[0];
    expect(sms?.nextAttemptAt).toBe(new Date(t1.getTime() + 60 * second).toISOString());

    expect(await workAt(harness, new Date(t1.getTime() + 60 * second))).toMatchObject({ failed: 1 });
    const after = await findingOf(team.coordinator, subject.id, finding.id);
    expect(deliveriesOf(after)[0]).toMatchObject({
      status: "failed",
      attempts: 3,
      lastError: "The SMS gateway answered 500.",
      nextAttemptAt: null,
      sentAt: null,
    });
    expect(after.firstNotifiedAt).toBeNull();
    expect(gateway.received.length - received).toBe(3);
    const [audit] = await auditRows(harness, "critical-finding.message-failed", subject.id);
    expect(audit?.details).toMatchObject({ channel: "sms", destination: "+*******0199", attempts: 3 });
    // Spent: nothing is tried again.
    expect(await workAt(harness, new Date(t1.getTime() + 3_600_000))).toMatchObject({ retrying: 0, failed: 0 });
  });

  it("is sent on its retry once the gateway answers again, with the link in the text", async () => {
    gateway.answer(503);
    const { subject, finding } = await raiseOnNewCase();
    const t0 = new Date();
    await workAt(harness, t0);
    gateway.answer(200);
    expect(await workAt(harness, new Date(t0.getTime() + 30 * second))).toMatchObject({ sent: 1 });
    const after = await findingOf(team.coordinator, subject.id, finding.id);
    expect(deliveriesOf(after)[0]).toMatchObject({ status: "sent", attempts: 2, lastError: null });
    expect(after.firstNotifiedAt).not.toBeNull();
    const text = gateway.received.at(-1);
    expect(text?.to).toBe("+13125550199");
    expect(text?.body).toContain(`case ${subject.caseNumber}`);
    expect(tokensIn([text?.body ?? ""])).toHaveLength(1);
  });
});

describe("e-mail through a real SMTP server", () => {
  it("reaches the reviewer's verified address, and a refused recipient (550) is retried", async () => {
    gateway.answer(200);
    mail.refuse(true);
    const { subject, finding } = await raiseOnNewCase({ reviewer: true });
    const t0 = new Date();
    expect(await workAt(harness, t0)).toMatchObject({ sent: 1, retrying: 1 });
    const email = deliveriesOf(await findingOf(team.coordinator, subject.id, finding.id)).find(
      (delivery) => delivery.channel === "email",
    );
    expect(email?.status).toBe("pending");
    expect(email?.lastError).toMatch(/Relay access denied/);

    mail.refuse(false);
    expect(await workAt(harness, new Date(t0.getTime() + 30 * second))).toMatchObject({ sent: 1 });
    const message = mail.received.at(-1);
    expect(message?.to).toEqual([`${team.reviewer.username}@vigil.test`]);
    // The subject's dash is not ASCII, so it travels encoded.
    expect(message?.data).toContain("Subject: =?UTF-8?Q?For_information:_critical_EEG_finding");
    // RFC 3834: automatic mail, which no vacation responder answers.
    expect(message?.data).toMatch(/^Auto-Submitted: auto-generated\r?$/m);
    expect(message?.data).toContain(`Case: ${subject.caseNumber}`);
    expect(message?.data).toContain("as the case's reviewer");
    // Staff are informed; the acknowledgement link is the hospital's.
    expect(tokensIn([message?.data ?? ""])).toHaveLength(0);
    expect(message?.data).not.toContain(subject.patient?.lastName);
  });
});

describe("a message an instance claimed and never settled (it died mid-send)", () => {
  it("is taken again once its 60 s lease runs out, and sent once", async () => {
    gateway.answer(200);
    const { subject, finding } = await raiseOnNewCase();
    const t0 = new Date();
    const claimed = await claimDueDeliveries(harness.database.db, t0, 50);
    expect(claimed.map((delivery) => delivery.findingId)).toContain(finding.id);
    const received = gateway.received.length;
    expect(await workAt(harness, new Date(t0.getTime() + 59 * second))).toMatchObject({ sent: 0 });
    const pass = await workAt(harness, new Date(t0.getTime() + 60 * second));
    expect(pass.sent).toBeGreaterThanOrEqual(1);
    expect(deliveriesOf(await findingOf(team.coordinator, subject.id, finding.id))[0]).toMatchObject({
      status: "sent",
      attempts: 2,
    });
    expect(gateway.received.slice(received).filter((text) => text.body.includes(subject.caseNumber))).toHaveLength(1);
  });
});

describe("an instance's job runner", () => {
  it("sends a new finding's messages at once, not at its next tick an hour away", async () => {
    gateway.answer(200);
    const instance = await appOnSameDatabase(harness, {
      runJobs: true,
      configure: (config) => ({ ...config, findings: { ...config.findings, workerSeconds: 3600 } }),
    });
    try {
      const subject = await monitoredCase(harness, team, clientId);
      // A technologist whose calls reach the instance with the worker.
      const technologist = await callerFor(instance, "deliver-waker", ["technologist"]);
      await raiseFinding(technologist, subject.id, sampleFinding({ kind: "other-urgent" }));
      const started = Date.now();
      while (!gateway.received.some((text) => text.body.includes(subject.caseNumber))) {
        if (Date.now() - started > 5000) throw new Error("the message did not leave within 5 s");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await instance.close();
    }
  });

  it("names the patient in messages only where the operator enabled it", async () => {
    gateway.answer(200);
    const named = await appOnSameDatabase(harness, {
      configure: (config) => ({ ...config, findings: { ...config.findings, messagesIncludePatient: true } }),
    });
    try {
      const { subject } = await raiseOnNewCase();
      await workAt(named);
      const text = gateway.received.findLast((sms) => sms.body.includes(subject.caseNumber));
      expect(text?.body).toContain(`${subject.patient?.firstName} ${subject.patient?.lastName}`);
      expect(text?.body).toContain(`MRN ${subject.patient?.mrn}`);
    } finally {
      await named.close();
    }
  });
});
