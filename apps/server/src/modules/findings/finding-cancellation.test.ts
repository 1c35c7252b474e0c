import type { CriticalFinding } from "@vigil/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

/**
 * Cancelling a critical finding (PRODUCT.md §11) tells everyone a message of it reached, over each channel that
 * reached them, so nobody acts on a finding that was withdrawn; a message that never left is not needed, and those
 * never told hear nothing.
 */

let harness: TestApp;
let team: Team;
let clientId: string;
let charge: { email: string | null; phone: string | null };
let second: { email: string | null };

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "cancel");
  clientId = (await createClient(team.coordinator)).id;
  charge = await addContact(team.coordinator, clientId, { name: "Ann Charge", isPrimary: true, phone: "+13125550142" });
  second = await addContact(team.coordinator, clientId, { name: "Bo Second" });
});
afterAll(() => harness.close());

const purposesOf = (finding: CriticalFinding) =>
  finding.recipients.flatMap((recipient) =>
    recipient.deliveries.map((delivery) => [recipient.name, delivery.purpose, delivery.channel, delivery.status]),
  );

describe("cancelling a finding", () => {
  it("tells everyone already told that it was cancelled, and no one else", async () => {
    const subject = await monitoredCase(harness, team, clientId, { reviewer: team.reviewer });
    const finding = await raiseFinding(team.technologist, subject.id);
    await workAt(harness);
    const response = await team.technologist("POST", `${findingsPath(subject.id)}/${finding.id}/cancellation`, {
      body: { reason: "Chewing artifact, Jordan's family visiting." },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await workAt(harness)).toMatchObject({ sent: 3, failed: 0 });

    const reviewerName = `${team.reviewer.username} Tester`;
    expect(purposesOf(await findingOf(team.coordinator, subject.id, finding.id))).toEqual([
      ["Ann Charge", "notice", "email", "sent"],
      ["Ann Charge", "notice", "sms", "sent"],
      ["Ann Charge", "cancellation", "email", "sent"],
      ["Ann Charge", "cancellation", "sms", "sent"],
      [reviewerName, "notice", "email", "sent"],
      [reviewerName, "cancellation", "email", "sent"],
    ]);
    const mail = (await outboxFor(harness, charge.email as string)).at(-1);
    expect(mail?.subject).toBe(`Cancelled: critical EEG finding — ${subject.caseNumber}`);
    expect(mail?.body).toContain("No acknowledgement is needed");
    // The reason is free text: it stays in Vigil.
    expect(mail?.body).not.toContain("Jordan");
    const sms = (await outboxFor(harness, charge.phone as string)).at(-1);
    expect(sms?.body).toMatch(new RegExp(`^Vigil: CANCELLED - the critical EEG finding on case ${subject.caseNumber}`));
    expect((await outboxFor(harness, `${team.reviewer.username}@vigil.test`)).at(-1)?.subject).toMatch(/^Cancelled:/);
    // The second contact was never told, so hears nothing now.
    expect(await outboxFor(harness, second.email as string)).toEqual([]);
    const [audit] = (await auditRows(harness, "critical-finding.cancel", subject.id)).slice(-1);
    expect(audit?.details).toMatchObject({ cancellationMessages: 3, unsentMessages: 0 });
  });

  it("leaves the messages that had not left yet as not needed, and tells nobody they never reached", async () => {
    const subject = await monitoredCase(harness, team, clientId);
    const finding = await raiseFinding(team.technologist, subject.id);
    const response = await team.technologist("POST", `${findingsPath(subject.id)}/${finding.id}/cancellation`, {
      body: { reason: "Raised on the wrong case." },
    });
    expect(response.statusCode, response.body).toBe(200);
    await workAt(harness);
    expect(purposesOf(await findingOf(team.coordinator, subject.id, finding.id))).toEqual([
      ["Ann Charge", "notice", "email", "not-needed"],
      ["Ann Charge", "notice", "sms", "not-needed"],
    ]);
  });
});
