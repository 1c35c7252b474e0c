import type { Case, CriticalFinding, EventItem, TimelineEntry } from "@vigil/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cases, criticalFindings, findingDeliveries, findingRecipients } from "../../db/schema.js";
import { maskDestination } from "../../messaging/message-service.js";
import { auditRows, caseIn, createClient, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import {
  addContact,
  findingOf,
  findingsPath,
  linkCall,
  lookUp,
  monitoredCase,
  outboxFor,
  raiseFinding,
  sampleFinding,
  tokensIn,
  workAt,
} from "../../testing/kits/findings-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { signLinkToken } from "./link-tokens.js";

/**
 * The critical finding's loop through the API (PRODUCT.md §11): raised on a case, its messages in the outbox (no
 * transport is configured), the link looked up and used once, a phone acknowledgement, a cancellation, and what the
 * case's record, timeline and audit log keep of it.
 */

let harness: TestApp;
let team: Team;
let clientId: string;
let charge: { _id: string; name: string; email: string | null };

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "findings");
  clientId = (await createClient(team.coordinator)).id;
  // Listed second alphabetically but primary: the contacts tab's order puts it first.
  charge = await addContact(team.coordinator, clientId, {
    name: "Zed Charge Nurse",
    isPrimary: true,
    phone: "+13125550111",
  });
  await addContact(team.coordinator, clientId, { name: "Amy Intensivist" });
  await addContact(team.coordinator, clientId, { name: "Bo Not Flagged", notifyOnCritical: false });
});
afterAll(() => harness.close());

/** The e-mail address of the client's contact `contactId`. */
async function emailOf(contactId: string | null | undefined): Promise<string> {
  const response = await team.coordinator("GET", `/clients/${clientId}/contacts`);
  const found = (response.json().data as { _id: string; email: string | null }[]).find((c) => c._id === contactId);
  if (!found?.email) throw new Error(`no e-mail for contact ${contactId}`);
  return found.email;
}

/** The link sent to `address` for the finding's recipient `recipientId` (a token begins with the recipient's id). */
async function tokenFrom(address: string, recipientId: string | undefined): Promise<string> {
  const prefix = `${recipientId?.replace(/-/g, "")}.`;
  const tokens = tokensIn((await outboxFor(harness, address)).map((message) => message.body));
  const token = tokens.find((candidate) => candidate.startsWith(prefix));
  if (!token) throw new Error(`no link for recipient ${recipientId} was sent to ${address}`);
  return token;
}

describe("raising a critical finding", () => {
  let subject: Case;
  let finding: CriticalFinding;

  beforeAll(async () => {
    subject = await monitoredCase(harness, team, clientId, { reviewer: team.reviewer });
    finding = await raiseFinding(team.technologist, subject.id);
  });

  it("opens it with the pinned protocol's window, due that long after it was raised", () => {
    expect(finding).toMatchObject({
      caseId: subject.id,
      caseNumber: subject.caseNumber,
      clientId,
      kind: "electrographic-seizure",
      status: "open",
      windowMinutes: 15,
      escalations: 0,
      firstNotifiedAt: null,
      acknowledgement: null,
      withinWindow: null,
      raisedBy: { username: team.technologist.username },
    });
    expect(Date.parse(finding.dueAt) - Date.parse(finding.raisedAt)).toBe(15 * 60_000);
    expect(finding.nextEscalationAt).toBe(finding.dueAt);
  });

  it("tells the first flagged contact (by email and SMS) and the case's reviewer (email), and waits to send", () => {
    expect(finding.recipients.map((recipient) => [recipient.kind, recipient.name, recipient.level])).toEqual([
      ["contact", "Zed Charge Nurse", 0],
      ["reviewer", `${team.reviewer.username} Tester`, 0],
    ]);
    const [contact, reviewer] = finding.recipients;
    expect(contact?.contactId).toBe(charge._id);
    expect(contact?.deliveries.map((delivery) => [delivery.channel, delivery.status])).toEqual([
      ["email", "pending"],
      ["sms", "pending"],
    ]);
    // Destinations are masked on the screen.
    expect(contact?.deliveries.map((delivery) => delivery.destination)).toEqual([
      maskDestination("email", charge.email as string),
      "+*******0111",
    ]);
    expect(reviewer?.deliveries.map((delivery) => delivery.channel)).toEqual(["email"]);
  });

  it("writes it on the case as a seizure event record, whose onset is the EEG onset", async () => {
    const response = await team.technologist("GET", `/cases/monitoring/${subject.id}/events`);
    expect(response.statusCode, response.body).toBe(200);
    const event = (response.json().data.items as EventItem[]).find((item) => item.id === finding.eventRecordId);
    expect(event?.data).toMatchObject({
      type: "seizure",
      occurredAt: finding.onsetAt,
      description: `Critical finding — Electrographic seizure (ESz): ${sampleFinding().description}`,
    });
    expect(event?.revision).toBe(1);
  });

  it("audits the raise in the same transaction as the case change", async () => {
    const [audit] = await auditRows(harness, "critical-finding.raise", subject.id);
    expect(audit?.actorUsername).toBe(team.technologist.username);
    expect(audit?.details).toMatchObject({ findingId: finding.id, caseNumber: subject.caseNumber });
  });

  it("sends every message on the worker's next pass, the first one setting when the finding was first notified", async () => {
    const pass = await workAt(harness);
    expect(pass).toMatchObject({ escalations: 0, sent: 3, retrying: 0, failed: 0 });
    const email = (await outboxFor(harness, charge.email as string)).at(-1);
    expect(email?.subject).toMatch(
      new RegExp(`^Critical EEG finding — acknowledge by \\d\\d:\\d\\d C[SD]T — ${subject.caseNumber}$`),
    );
    expect(email?.body).toContain(`Case: ${subject.caseNumber}`);
    const sms = (await outboxFor(harness, "+13125550111")).at(-1);
    expect(sms?.channel).toBe("sms");
    for (const secret of [subject.patient?.lastName, subject.patient?.mrn, sampleFinding().description]) {
      expect(email?.body).not.toContain(secret);
      expect(sms?.body).not.toContain(secret);
    }
    const after = await findingOf(team.coordinator, subject.id, finding.id);
    expect(after.firstNotifiedAt).not.toBeNull();
    expect(after.recipients.flatMap((r) => r.deliveries.map((d) => d.status))).toEqual(["sent", "sent", "sent"]);
    // Nothing is sent twice.
    expect(await workAt(harness)).toMatchObject({ sent: 0 });
  });

  it("is refused with 409 outside monitoring and preview, writing nothing", async () => {
    for (const stage of ["intake", "reviewed"] as const) {
      const other = await caseIn(harness, team, clientId, stage);
      const response = await team.reviewer("POST", findingsPath(other.id), { body: sampleFinding() });
      expect(response.statusCode, `${stage}: ${response.body}`).toBe(409);
      expect(response.json().error.message).toContain(`is in ${stage}`);
      const rows = await harness.database.db
        .select()
        .from(criticalFindings)
        .where(eq(criticalFindings.caseId, other.id));
      expect(rows).toEqual([]);
    }
  });

  it("lets a reviewer raise one in preview, where events are otherwise not theirs to write", async () => {
    const preview = await caseIn(harness, team, clientId, "preview");
    const raised = await raiseFinding(team.reviewer, preview.id, sampleFinding({ kind: "other-urgent" }));
    expect(raised.status).toBe("open");
    const events = await team.reviewer("GET", `/cases/monitoring/${preview.id}/events`);
    const event = (events.json().data.items as EventItem[]).find((item) => item.id === raised.eventRecordId);
    expect(event?.data.type).toBe("other");
  });

  it("refuses an onset before the recording started with 400 naming the field and the start, writing nothing", async () => {
    const other = await monitoredCase(harness, team, clientId);
    // The case's recording started an hour ago; the onset typed is two days before.
    const before = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const response = await team.technologist("POST", findingsPath(other.id), {
      body: sampleFinding({ onsetAt: before }),
    });
    expect(response.statusCode, response.body).toBe(400);
    const [issue] = response.json().error.details.issues;
    expect(issue.path).toBe("body.onsetAt");
    expect(issue.message).toMatch(/^must not be before the recording started \(.* \(America\/Chicago\)\)$/);
    const rows = await harness.database.db.select().from(criticalFindings).where(eq(criticalFindings.caseId, other.id));
    expect(rows).toEqual([]);
  });

  it("refuses an onset in the future and an empty description with 400 naming the field", async () => {
    const future = await team.technologist("POST", findingsPath(subject.id), {
      body: sampleFinding({ onsetAt: new Date(Date.now() + 3_600_000).toISOString(), description: " " }),
    });
    expect(future.statusCode).toBe(400);
    const paths = future.json().error.details.issues.map((issue: { path: string }) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(["body.onsetAt", "body.description"]));
  });

  it("tells the coordinators at once when the client flagged no contact", async () => {
    const bare = await createClient(team.coordinator);
    const other = await monitoredCase(harness, team, bare.id);
    const raised = await raiseFinding(team.technologist, other.id);
    expect(raised.recipients.map((recipient) => [recipient.kind, recipient.username])).toEqual([
      ["coordinator", team.coordinator.username],
    ]);
  });
});

/** The finding escalated once (the second flagged contact told), its messages sent; the recipients as they stand. */
async function escalateOnce(subject: Case, finding: CriticalFinding): Promise<CriticalFinding> {
  await workAt(harness, new Date(Date.parse(finding.dueAt) + 1000));
  return findingOf(team.coordinator, subject.id, finding.id);
}

describe("the acknowledgement link", () => {
  let subject: Case;
  let finding: CriticalFinding;
  let contactToken: string;
  let secondToken: string;

  beforeAll(async () => {
    subject = await monitoredCase(harness, team, clientId, { reviewer: team.reviewer2 });
    finding = await raiseFinding(team.technologist, subject.id);
    await workAt(harness);
    contactToken = await tokenFrom(charge.email as string, finding.recipients[0]?.id);
    const escalated = await escalateOnce(subject, finding);
    const second = escalated.recipients.find((recipient) => recipient.name === "Amy Intensivist");
    secondToken = await tokenFrom(await emailOf(second?.contactId), second?.id);
  });

  it("shows the holder the finding with no account, and not the patient by default", async () => {
    const view = await lookUp(harness, contactToken);
    expect(view).toMatchObject({
      caseNumber: subject.caseNumber,
      kind: "electrographic-seizure",
      status: "open",
      recipientName: "Zed Charge Nurse",
      patient: null,
      acknowledgedAt: null,
      timeZone: "America/Chicago",
    });
    const [audit] = (await auditRows(harness, "critical-finding.link-lookup")).slice(-1);
    expect(audit).toMatchObject({ outcome: "success", actorUsername: null, ip: "203.0.113.7" });
  });

  it("acknowledges once with the name given and the read-back, stopping the escalation", async () => {
    const response = await linkCall(harness, "acknowledgement", {
      token: contactToken,
      name: "Dr. Ward",
      readBack: "ESz left temporal, onset 09:58",
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ status: "acknowledged", acknowledgedBy: "Dr. Ward" });

    const after = await findingOf(team.coordinator, subject.id, finding.id);
    expect(after).toMatchObject({
      status: "acknowledged",
      nextEscalationAt: null,
      withinWindow: true,
      acknowledgement: {
        name: "Dr. Ward",
        via: "link",
        recipientId: after.recipients[0]?.id,
        readBackConfirmed: false,
        note: "ESz left temporal, onset 09:58",
        recordedBy: null,
      },
    });
    expect(after.recipients[0]?.linkUsedAt).not.toBeNull();
    const [audit] = (await auditRows(harness, "critical-finding.acknowledge", subject.id)).slice(-1);
    expect(audit).toMatchObject({ outcome: "success", actorUsername: null });
    expect(audit?.details).toMatchObject({ via: "link", name: "Dr. Ward", recipientId: after.recipients[0]?.id });
  });

  it("answers 410 'used' to the same link again, for the page and for a second press", async () => {
    for (const call of ["lookup", "acknowledgement"] as const) {
      const again = await linkCall(harness, call, { token: contactToken, name: "Someone Else" });
      expect(again.statusCode, again.body).toBe(410);
      expect(again.json().error).toMatchObject({ code: "gone", details: { reason: "used" } });
      expect(again.json().error.message).toMatch(/already used .* \(America\/Chicago\); each link works once/);
    }
  });

  it("shows another recipient who acknowledged and when, and refuses their acknowledgement as 'closed'", async () => {
    const view = await lookUp(harness, secondToken);
    expect(view).toMatchObject({ status: "acknowledged", acknowledgedBy: "Dr. Ward", readBack: null });
    const late = await linkCall(harness, "acknowledgement", { token: secondToken, name: "Dr. Late" });
    expect(late.statusCode).toBe(410);
    expect(late.json().error.details).toMatchObject({ reason: "closed" });
    expect(late.json().error.message).toContain("already acknowledged by Dr. Ward");
  });

  it("answers 404 to a tampered link or another recipient's id under this signature, before any lookup", async () => {
    const [, expiry, signature] = contactToken.split(".");
    const otherId = secondToken.split(".")[0];
    for (const token of [
      `${contactToken.slice(0, -1)}${contactToken.endsWith("A") ? "B" : "A"}`,
      `${otherId}.${expiry}.${signature}`,
    ]) {
      const response = await linkCall(harness, "lookup", { token });
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json().error.message).toBe("This link is not valid.");
    }
    const refusals = (await auditRows(harness, "critical-finding.link-lookup")).filter(
      (row) => row.outcome === "failure",
    );
    expect(refusals.at(-1)?.details).toMatchObject({ reason: "invalid", recipientId: null });
  });

  it("answers 410 'expired' to a link past its expiry", async () => {
    const other = await monitoredCase(harness, team, clientId);
    const open = await raiseFinding(team.technologist, other.id);
    const recipient = open.recipients[0];
    if (!recipient) throw new Error("no recipient");
    // The link as the sender would have built it, had the recipient been told a day and an hour ago.
    const past = new Date(Math.floor((Date.now() - 3_600_000) / 1000) * 1000);
    await harness.database.db
      .update(findingRecipients)
      .set({ linkExpiresAt: past })
      .where(eq(findingRecipients.id, recipient.id));
    const token = signLinkToken(harness.app.findings.linkSecret, { recipientId: recipient.id, expiresAt: past });
    const response = await linkCall(harness, "acknowledgement", { token, name: "Dr. Slow" });
    expect(response.statusCode).toBe(410);
    expect(response.json().error.details).toEqual({ reason: "expired", at: past.toISOString() });
    expect((await findingOf(team.coordinator, other.id, open.id)).status).toBe("open");
  });

  it("limits the calls per address, answering 429 with Retry-After", async () => {
    const limited = await createTestApp({ IDENTITY_REQUESTS_PER_IP: "2" });
    try {
      const statuses: number[] = [];
      for (let call = 0; call < 3; call += 1) {
        statuses.push((await linkCall(limited, "lookup", { token: contactToken }, "198.51.100.9")).statusCode);
      }
      expect(statuses).toEqual([404, 404, 429]);
      const other = await linkCall(limited, "lookup", { token: contactToken }, "198.51.100.10");
      expect(other.statusCode).toBe(404);
    } finally {
      await limited.close();
    }
  });
});

describe("links pressed at the same moment", () => {
  it("acknowledge once: of one link pressed twice, and of two recipients' links, one wins and the other hears why", async () => {
    const subject = await monitoredCase(harness, team, clientId, { reviewer: team.reviewer });
    const finding = await raiseFinding(team.technologist, subject.id);
    await workAt(harness);
    const contact = await tokenFrom(charge.email as string, finding.recipients[0]?.id);
    const second = (await escalateOnce(subject, finding)).recipients.find((r) => r.name === "Amy Intensivist");
    const secondToken = await tokenFrom(await emailOf(second?.contactId), second?.id);
    const answers = await Promise.all([
      linkCall(harness, "acknowledgement", { token: contact, name: "Dr. One" }),
      linkCall(harness, "acknowledgement", { token: contact, name: "Dr. One Again" }),
      linkCall(harness, "acknowledgement", { token: secondToken, name: "Dr. Two" }),
    ]);
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 410)).toHaveLength(2);
    const reasons = answers.filter((answer) => answer.statusCode === 410).map((a) => a.json().error.details.reason);
    expect(reasons.every((reason) => reason === "used" || reason === "closed")).toBe(true);
    const after = await findingOf(team.coordinator, subject.id, finding.id);
    expect(after.status).toBe("acknowledged");
    expect(after.recipients.filter((recipient) => recipient.linkUsedAt !== null)).toHaveLength(1);
    const acknowledgements = await auditRows(harness, "critical-finding.acknowledge", subject.id);
    expect(acknowledgements.filter((row) => row.outcome === "success")).toHaveLength(1);
  });
});

describe("staff handling a finding", () => {
  it("records an acknowledgement taken by phone, with who recorded it, and leaves waiting messages unsent", async () => {
    const subject = await monitoredCase(harness, team, clientId, { reviewer: team.reviewer });
    const finding = await raiseFinding(team.reviewer, subject.id);
    const acknowledgedAt = new Date().toISOString();
    const response = await team.coordinator("POST", `${findingsPath(subject.id)}/${finding.id}/acknowledgement`, {
      body: { name: "Dr. Phone", acknowledgedAt, readBackConfirmed: true, note: "Read back: ESz, left temporal." },
    });
    expect(response.statusCode, response.body).toBe(200);
    const acknowledged: CriticalFinding = response.json().data;
    expect(acknowledged).toMatchObject({
      status: "acknowledged",
      withinWindow: true,
      nextEscalationAt: null,
      acknowledgement: {
        via: "phone",
        name: "Dr. Phone",
        readBackConfirmed: true,
        recipientId: null,
        recordedBy: { username: team.coordinator.username },
      },
    });
    const deliveries = acknowledged.recipients.flatMap((recipient) => recipient.deliveries);
    expect(deliveries.map((delivery) => [delivery.status, delivery.lastError])).toEqual(
      deliveries.map(() => ["not-needed", "Not sent: the finding was already acknowledged."]),
    );
    await workAt(harness);
    const later = await findingOf(team.coordinator, subject.id, finding.id);
    expect(later.recipients.flatMap((recipient) => recipient.deliveries.map((delivery) => delivery.status))).toEqual(
      deliveries.map(() => "not-needed"),
    );

    const twice = await team.coordinator("POST", `${findingsPath(subject.id)}/${finding.id}/acknowledgement`, {
      body: { name: "Dr. Again", acknowledgedAt, readBackConfirmed: false },
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.message).toContain("already acknowledged by Dr. Phone");
  });

  it("refuses a phone acknowledgement dated before the finding was raised", async () => {
    const subject = await monitoredCase(harness, team, clientId);
    const finding = await raiseFinding(team.technologist, subject.id);
    const response = await team.technologist("POST", `${findingsPath(subject.id)}/${finding.id}/acknowledgement`, {
      body: {
        name: "Dr. Early",
        acknowledgedAt: new Date(Date.now() - 3_600_000).toISOString(),
        readBackConfirmed: true,
      },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details.issues[0].path).toBe("body.acknowledgedAt");
  });

  it("cancels an open finding with a reason, after which it owes nothing and takes no acknowledgement", async () => {
    const subject = await monitoredCase(harness, team, clientId);
    const finding = await raiseFinding(team.technologist, subject.id);
    await workAt(harness);
    const token = await tokenFrom(charge.email as string, finding.recipients[0]?.id);
    const response = await team.technologist("POST", `${findingsPath(subject.id)}/${finding.id}/cancellation`, {
      body: { reason: "Artifact (chewing) on review." },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({
      status: "cancelled",
      withinWindow: null,
      nextEscalationAt: null,
      cancellation: { reason: "Artifact (chewing) on review.", by: { username: team.technologist.username } },
    });
    const late = await linkCall(harness, "acknowledgement", { token, name: "Dr. Ward" });
    expect(late.statusCode).toBe(410);
    expect(late.json().error.details.reason).toBe("closed");
    const again = await team.technologist("POST", `${findingsPath(subject.id)}/${finding.id}/cancellation`, {
      body: { reason: "Twice." },
    });
    expect(again.statusCode).toBe(409);
  });

  it("answers 404 for a finding of another case", async () => {
    const one = await monitoredCase(harness, team, clientId);
    const other = await monitoredCase(harness, team, clientId);
    const finding = await raiseFinding(team.technologist, one.id);
    const response = await team.coordinator("POST", `${findingsPath(other.id)}/${finding.id}/cancellation`, {
      body: { reason: "Wrong case." },
    });
    expect(response.statusCode).toBe(404);
  });
});

describe("the case's timeline", () => {
  it("lists the raise (with who was told), the escalation and the acknowledgement among the case's steps", async () => {
    const subject = await monitoredCase(harness, team, clientId, { reviewer: team.reviewer });
    const finding = await raiseFinding(team.technologist, subject.id);
    await workAt(harness, new Date(Date.parse(finding.dueAt) + 1000));
    const acknowledged = await team.coordinator("POST", `${findingsPath(subject.id)}/${finding.id}/acknowledgement`, {
      body: { name: "Dr. Phone", acknowledgedAt: new Date().toISOString(), readBackConfirmed: true },
    });
    expect(acknowledged.statusCode, acknowledged.body).toBe(200);

    const response = await team.coordinator("GET", `/cases/${subject.id}/timeline`);
    expect(response.statusCode, response.body).toBe(200);
    const steps = (response.json().data.items as TimelineEntry[]).filter(
      (entry) => entry.kind === "action" && entry.action.endsWith("critical-finding"),
    );
    expect(steps.map((entry) => (entry.kind === "action" ? entry.action : ""))).toEqual([
      "raise-critical-finding",
      "acknowledge-critical-finding",
      "escalate-critical-finding",
    ]);
    const [raised, phone, escalated] = steps;
    expect(raised).toMatchObject({
      actor: { username: team.technologist.username },
      details: {
        finding: "Electrographic seizure (ESz)",
        notified: `Zed Charge Nurse, ${team.reviewer.username} Tester`,
      },
    });
    expect(phone).toMatchObject({ actor: { username: team.coordinator.username }, details: { via: "phone" } });
    // The escalation was sent at the due time the worker was given, after the acknowledgement's real time.
    expect(escalated).toMatchObject({ actor: { username: "vigil" }, details: { escalation: 1 } });
    expect(new Set(steps.map((entry) => entry.id)).size).toBe(3);
  });
});

describe("a finding on a case that moved on", () => {
  it("keeps the finding when the case moves on: it is acknowledged on the case wherever the case is", async () => {
    const subject = await monitoredCase(harness, team, clientId);
    const finding = await raiseFinding(team.technologist, subject.id);
    await harness.database.db.update(cases).set({ stage: "reviewed" }).where(eq(cases.id, subject.id));
    const response = await team.coordinator("POST", `${findingsPath(subject.id)}/${finding.id}/acknowledgement`, {
      body: { name: "Dr. Later", acknowledgedAt: new Date().toISOString(), readBackConfirmed: false },
    });
    expect(response.statusCode, response.body).toBe(200);
    const rows = await harness.database.db
      .select()
      .from(findingDeliveries)
      .where(eq(findingDeliveries.findingId, finding.id));
    expect(rows.every((row) => row.status === "not-needed")).toBe(true);
  });
});
