import type { CriticalFinding } from "@vigil/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findingDeliveries } from "../../db/schema.js";
import { auditRows, createClient, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import {
  addContact,
  findingOf,
  findingsPath,
  monitoredCase,
  outboxFor,
  raiseFinding,
  workAt,
} from "../../testing/kits/findings-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { claimDueDeliveries, deliveryLeaseMs } from "./finding-deliveries-repository.js";

/**
 * A message an earlier try may have handed to the relay or gateway — its instance died between the hand-over and the
 * record (the claim committed, its lease ran out), or the transport timed out — is never recorded as not sent once
 * the finding closes: it "may have been sent", with why, and a cancellation follows it.
 */

let harness: TestApp;
let team: Team;
let clientId: string;
let contact: { email: string | null };

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "uncertain");
  clientId = (await createClient(team.coordinator)).id;
  contact = await addContact(team.coordinator, clientId, { name: "Ann Maybe", isPrimary: true, phone: null });
});
afterAll(() => harness.close());

const statesOf = (finding: CriticalFinding) =>
  finding.recipients.flatMap((recipient) =>
    recipient.deliveries.map((delivery) => [delivery.purpose, delivery.channel, delivery.status]),
  );

async function cancel(caseId: string, findingId: string) {
  const response = await team.technologist("POST", `${findingsPath(caseId)}/${findingId}/cancellation`, {
    body: { reason: "Artifact." },
  });
  expect(response.statusCode, response.body).toBe(200);
}

describe("a finding message whose send may have happened", () => {
  it("is recorded 'may have been sent' when its sender died mid-try and the finding was cancelled meanwhile", async () => {
    const subject = await monitoredCase(harness, team, clientId);
    const finding = await raiseFinding(team.technologist, subject.id);
    // What a try killed between the hand-over and its record leaves: the claim, committed, under a lease.
    const t0 = new Date();
    const claimed = await claimDueDeliveries(harness.database.db, t0, 100);
    expect(claimed.some((delivery) => delivery.findingId === finding.id)).toBe(true);
    await cancel(subject.id, finding.id);
    // The lease still held at the cancellation: the message was not set aside then.
    expect(statesOf(await findingOf(team.coordinator, subject.id, finding.id))).toEqual([
      ["notice", "email", "sending"],
    ]);

    await workAt(harness, new Date(t0.getTime() + deliveryLeaseMs + 1000));
    const after = await findingOf(team.coordinator, subject.id, finding.id);
    const notice = after.recipients[0]?.deliveries.find((delivery) => delivery.purpose === "notice");
    expect(notice?.status).toBe("may-have-been-sent");
    expect(notice?.lastError).toMatch(/^May have been sent: an earlier try may have handed it to the relay/);
    expect(notice?.lastError).not.toMatch(/Not sent/);
    // It may have reached them: they are told it was cancelled.
    expect(statesOf(after)).toContainEqual(["cancellation", "email", "sent"]);
    expect((await outboxFor(harness, contact.email as string)).at(-1)?.subject).toMatch(/^Cancelled:/);
    const [audit] = (await auditRows(harness, "critical-finding.message-may-have-been-sent", subject.id)).slice(-1);
    expect(audit?.details).toMatchObject({ findingId: finding.id, purpose: "notice", channel: "email" });
  });

  it("is recorded 'may have been sent' when its last try timed out and the finding was then cancelled", async () => {
    const subject = await monitoredCase(harness, team, clientId);
    const finding = await raiseFinding(team.technologist, subject.id);
    await harness.database.db
      .update(findingDeliveries)
      .set({ attempts: 1, lastError: "Connection timeout", nextAttemptAt: new Date(Date.now() + 60_000) })
      .where(eq(findingDeliveries.findingId, finding.id));
    await cancel(subject.id, finding.id);
    const after = await findingOf(team.coordinator, subject.id, finding.id);
    expect(statesOf(after)[0]).toEqual(["notice", "email", "may-have-been-sent"]);
    expect(statesOf(after)).toContainEqual(["cancellation", "email", "pending"]);
  });

  it("is still 'not needed' when no try ever began, or the last one was refused", async () => {
    const subject = await monitoredCase(harness, team, clientId);
    const finding = await raiseFinding(team.technologist, subject.id);
    await harness.database.db
      .update(findingDeliveries)
      .set({ attempts: 1, lastError: "550 mailbox unavailable", nextAttemptAt: new Date(Date.now() + 60_000) })
      .where(eq(findingDeliveries.findingId, finding.id));
    await cancel(subject.id, finding.id);
    expect(statesOf(await findingOf(team.coordinator, subject.id, finding.id))).toEqual([
      ["notice", "email", "not-needed"],
    ]);
  });
});
