import type { Case, CriticalFinding, ServiceLevelReport } from "@vigil/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { casePatientDetails, criticalFindings } from "../../db/schema.js";
import { auditRows, createClient, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import {
  addContact,
  findingOf,
  findingsPath,
  linkCall,
  lookUp,
  monitoredCase,
  outboxFor,
  raiseFinding,
  tokensIn,
  workAt,
} from "../../testing/kits/findings-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { phoneAcknowledgementTime } from "./findings-service.js";
import { signLinkToken } from "./link-tokens.js";

/**
 * Who may acknowledge a critical finding, and how (PRODUCT.md §10, §11): only the hospital — a client contact's own
 * link, or a phone call staff record — closes the loop and counts in the service-level report; Vigil staff are
 * informed, never handed a link that acknowledges for the hospital. The page gives the physician what they need to
 * act, and a phone acknowledgement may be dated in the minute the finding was raised.
 */

let harness: TestApp;
let team: Team;
let clientId: string;
let charge: { _id: string; name: string; email: string | null };

beforeAll(async () => {
  harness = await createTestApp({ FINDING_TEAM_PHONE: "+1 312 555 0199" });
  team = await teamFor(harness, "acknowledgers");
  clientId = (await createClient(team.coordinator)).id;
  charge = await addContact(team.coordinator, clientId, { name: "Zed Charge Nurse", isPrimary: true });
});
afterAll(() => harness.close());

async function contactToken(finding: CriticalFinding): Promise<string> {
  const prefix = `${finding.recipients[0]?.id.replace(/-/g, "")}.`;
  const tokens = tokensIn((await outboxFor(harness, charge.email as string)).map((message) => message.body));
  const token = tokens.find((candidate) => candidate.startsWith(prefix));
  if (!token) throw new Error("no link was sent to the contact");
  return token;
}

const acknowledgementPath = (caseId: string, findingId: string) =>
  `${findingsPath(caseId)}/${findingId}/acknowledgement`;

describe("staff told of a finding", () => {
  let subject: Case;
  let finding: CriticalFinding;

  beforeAll(async () => {
    subject = await monitoredCase(harness, team, clientId, { reviewer: team.reviewer });
    finding = await raiseFinding(team.technologist, subject.id);
    await workAt(harness);
  });

  it("are informed, with the case to open and no acknowledgement link", async () => {
    const [mail] = await outboxFor(harness, `${team.reviewer.username}@vigil.test`);
    expect(mail?.subject).toMatch(/^For information: critical EEG finding, hospital to acknowledge by/);
    expect(mail?.body).toContain("this message does not acknowledge it for them");
    expect(mail?.body).toContain(`/#/continuous-monitoring/cases/monitoring/${subject.id}/overview`);
    expect(tokensIn([mail?.body ?? ""])).toEqual([]);
  });

  it("cannot acknowledge for the hospital with a link signed for them: 410 'staff', the finding still open", async () => {
    const reviewer = finding.recipients.find((recipient) => recipient.kind === "reviewer");
    if (!reviewer) throw new Error("no reviewer recipient");
    const token = signLinkToken(harness.app.findings.linkSecret, {
      recipientId: reviewer.id,
      expiresAt: new Date(reviewer.linkExpiresAt),
    });
    for (const call of ["lookup", "acknowledgement"] as const) {
      const response = await linkCall(harness, call, { token, name: "Dr. Reviewer" });
      expect(response.statusCode, response.body).toBe(410);
      expect(response.json().error.details).toEqual({ reason: "staff", at: null });
      expect(response.json().error.message).toContain("only the hospital acknowledges a finding");
    }
    const after = await findingOf(team.coordinator, subject.id, finding.id);
    expect(after).toMatchObject({ status: "open", acknowledgement: null });
    expect(after.nextEscalationAt).not.toBeNull();
  });

  it("see the finding in their bell: the reviewer when it is raised, each coordinator once it escalates", async () => {
    const bell = async (caller = team.coordinator) => {
      const response = await caller("GET", "/api/notifications/clock-alerts");
      expect(response.statusCode, response.body).toBe(200);
      return (response.json().data.items as { caseId: string; kind: string; state: string; dueAt: string }[]).filter(
        (alert) => alert.caseId === subject.id,
      );
    };
    expect(await bell(team.reviewer)).toEqual([
      expect.objectContaining({ kind: "critical-notification", state: "due-soon", dueAt: finding.dueAt }),
    ]);
    expect(await bell()).toEqual([]);
    const due = Date.parse(finding.dueAt);
    await workAt(harness, new Date(due + 1000));
    await workAt(harness, new Date(due + 11 * 60_000));
    expect((await findingOf(team.coordinator, subject.id, finding.id)).escalations).toBe(2);
    // Two escalation e-mails, one entry in the bell.
    expect(await bell()).toEqual([
      expect.objectContaining({ kind: "critical-notification", state: "overdue", dueAt: finding.dueAt }),
    ]);
    const mails = (await outboxFor(harness, `${team.coordinator.username}@vigil.test`)).filter((mail) =>
      mail.subject.includes(subject.caseNumber),
    );
    expect(mails.map((mail) => mail.subject.split(":")[0])).toEqual(["Escalation 1", "Escalation 2"]);
  });
});

describe("the acknowledgement page", () => {
  it("shows where the patient lies, by when to acknowledge, and the team's number to call", async () => {
    const subject = await monitoredCase(harness, team, clientId);
    await harness.database.db
      .update(casePatientDetails)
      .set({ locationUnit: "Neuro ICU", locationRoom: null, locationBed: "12" })
      .where(eq(casePatientDetails.caseId, subject.id));
    const finding = await raiseFinding(team.technologist, subject.id);
    await workAt(harness);
    const view = await lookUp(harness, await contactToken(finding));
    expect(view).toMatchObject({
      recipientName: "Zed Charge Nurse",
      location: { unit: "Neuro ICU", room: null, bed: "12" },
      dueAt: finding.dueAt,
      teamPhone: "+1 312 555 0199",
      patient: null,
      readBack: null,
      readBackConfirmed: false,
    });
  });

  it("keeps a read-back the physician confirmed as a read-back, and a plain note as not read back", async () => {
    const subject = await monitoredCase(harness, team, clientId);
    const finding = await raiseFinding(team.technologist, subject.id);
    await workAt(harness);
    const token = await contactToken(finding);
    const unconfirmed = await linkCall(harness, "acknowledgement", {
      token,
      name: "Dr. Ward",
      readBackConfirmed: true,
    });
    expect(unconfirmed.statusCode).toBe(400);
    expect(unconfirmed.json().error.details.issues[0]).toMatchObject({ path: "body.readBack" });

    const response = await linkCall(harness, "acknowledgement", {
      token,
      name: "Dr. Ward",
      readBack: "ESz, onset 09:58, left temporal",
      readBackConfirmed: true,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({
      readBack: "ESz, onset 09:58, left temporal",
      readBackConfirmed: true,
    });
    const after = await findingOf(team.coordinator, subject.id, finding.id);
    expect(after.acknowledgement).toMatchObject({
      via: "link",
      readBackConfirmed: true,
      note: "ESz, onset 09:58, left temporal",
    });
    const [audit] = (await auditRows(harness, "critical-finding.acknowledge", subject.id)).slice(-1);
    expect(audit?.details).toMatchObject({ readBackConfirmed: true });

    const other = await raiseFinding(team.technologist, subject.id);
    await workAt(harness);
    const noted = await linkCall(harness, "acknowledgement", {
      token: await contactToken(other),
      name: "Dr. Ward",
      readBack: "Will see the patient.",
    });
    expect(noted.statusCode, noted.body).toBe(200);
    expect((await findingOf(team.coordinator, subject.id, other.id)).acknowledgement).toMatchObject({
      readBackConfirmed: false,
      note: "Will see the patient.",
    });
  });
});

describe("a phone acknowledgement's time", () => {
  it("is taken in the minute the finding was raised, and a minute ahead of the server as now", async () => {
    const subject = await monitoredCase(harness, team, clientId);
    const finding = await raiseFinding(team.technologist, subject.id);
    const raisedAt = Date.parse(finding.raisedAt);
    // What the form sends by default: "now", to the minute, which is before the raise by up to 59 seconds.
    const sameMinute = new Date(Math.floor(raisedAt / 60_000) * 60_000).toISOString();
    const response = await team.coordinator("POST", acknowledgementPath(subject.id, finding.id), {
      body: { name: "Dr. Phone", acknowledgedAt: sameMinute, readBackConfirmed: true },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.acknowledgement.at).toBe(finding.raisedAt);
    expect(response.json().data.withinWindow).toBe(true);

    const next = await monitoredCase(harness, team, clientId);
    const nextFinding = await raiseFinding(team.technologist, next.id);
    const nextMinute = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 60_000).toISOString();
    const ahead = await team.coordinator("POST", acknowledgementPath(next.id, nextFinding.id), {
      body: { name: "Dr. Phone", acknowledgedAt: nextMinute, readBackConfirmed: false },
    });
    expect(ahead.statusCode, ahead.body).toBe(200);
    expect(Date.parse(ahead.json().data.acknowledgement.at)).toBeLessThanOrEqual(Date.now());
  });

  it("keeps the second it was given, and refuses a minute before the raise", () => {
    const raisedAt = new Date("2026-03-01T16:04:31.250Z");
    const now = new Date("2026-03-01T16:20:00Z");
    expect(phoneAcknowledgementTime(new Date("2026-03-01T16:07:12Z"), raisedAt, now).toISOString()).toBe(
      "2026-03-01T16:07:12.000Z",
    );
    expect(phoneAcknowledgementTime(new Date("2026-03-01T16:04:00Z"), raisedAt, now)).toEqual(raisedAt);
    expect(() => phoneAcknowledgementTime(new Date("2026-03-01T16:03:59Z"), raisedAt, now)).toThrow(
      /body.acknowledgedAt must not be before the finding was raised/,
    );
  });
});

describe("the service-level report", () => {
  it("counts only the hospital's acknowledgement: one made with a staff member's link keeps no promise", async () => {
    const ownClient = (await createClient(team.coordinator)).id;
    const subject = await monitoredCase(harness, team, ownClient, { reviewer: team.reviewer });
    const finding = await raiseFinding(team.technologist, subject.id);
    const reviewer = finding.recipients.find((recipient) => recipient.kind === "reviewer");
    // As a finding acknowledged with a reviewer's link before such links were refused was stored.
    const raisedAt = new Date(finding.raisedAt);
    await harness.database.db
      .update(criticalFindings)
      .set({
        status: "acknowledged",
        acknowledgedAt: new Date(raisedAt.getTime() + 5 * 60_000),
        acknowledgedName: "Dr. Reviewer",
        acknowledgedVia: "link",
        acknowledgedRecipientId: reviewer?.id,
        nextEscalationAt: null,
      })
      .where(eq(criticalFindings.id, finding.id));
    const phoned = await raiseFinding(team.technologist, subject.id);
    const phone = await team.coordinator("POST", acknowledgementPath(subject.id, phoned.id), {
      body: { name: "Dr. Phone", acknowledgedAt: new Date().toISOString(), readBackConfirmed: true },
    });
    expect(phone.statusCode, phone.body).toBe(200);

    const month = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Chicago", year: "numeric", month: "2-digit" })
      .format(raisedAt)
      .slice(0, 7);
    const response = await team.coordinator("GET", `/api/reporting/service-levels/${ownClient}/${month}`);
    expect(response.statusCode, response.body).toBe(200);
    const report: ServiceLevelReport = response.json().data;
    // The phoned one was kept; the one only staff "acknowledged" is still open as far as the promise goes.
    expect(report.criticalFindings).toMatchObject({
      count: 2,
      acknowledgedInTime: 1,
      acknowledgedLate: 0,
      pending: 1,
      notAcknowledged: 0,
    });
  });
});
