import type { CriticalFinding } from "@vigil/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cases, users } from "../../db/schema.js";
import { callerFor } from "../../testing/kits/caller-kit.js";
import { auditRows, createClient, openCase, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { sampleProtocol } from "../../testing/kits/clients-kit.js";
import {
  addContact,
  findingOf,
  findingsPath,
  monitoredCase,
  raiseFinding,
  workAt,
} from "../../testing/kits/findings-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

/**
 * Escalation (PRODUCT.md §11): nobody acknowledged within the protocol's window, so Vigil tells the next flagged
 * contact and the coordinators, and again every FINDING_ESCALATION_MINUTES (default 10) until the finding is
 * acknowledged or cancelled. The worker's passes run at the moments the tests choose.
 */

let harness: TestApp;
let team: Team;
let clientId: string;
const second = 1000;
const minute = 60 * second;

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "escalate");
  await callerFor(harness, "escalate-coordinator2", ["coordinator"]);
  const away = await callerFor(harness, "escalate-coordinator-away", ["coordinator"]);
  await harness.database.db.update(users).set({ enabled: false }).where(eq(users.username, away.username));
  clientId = (await createClient(team.coordinator)).id;
  for (const name of ["Ann First", "Ben Second", "Cy Third"]) await addContact(team.coordinator, clientId, { name });
});
afterAll(() => harness.close());

const at = (finding: CriticalFinding, offsetMs: number) => new Date(Date.parse(finding.dueAt) + offsetMs);
const levelNames = (finding: CriticalFinding, level: number) =>
  finding.recipients.filter((recipient) => recipient.level === level).map((recipient) => recipient.name);

describe("escalating an unacknowledged finding", () => {
  let finding: CriticalFinding;
  let caseId: string;

  beforeAll(async () => {
    caseId = (await monitoredCase(harness, team, clientId)).id;
    finding = await raiseFinding(team.technologist, caseId);
  });

  it("waits for the end of the window", async () => {
    expect(await workAt(harness, at(finding, -second))).toMatchObject({ escalations: 0 });
    expect((await findingOf(team.coordinator, caseId, finding.id)).escalations).toBe(0);
  });

  it("then tells the second flagged contact and every enabled coordinator, once, and sends their messages", async () => {
    const pass = await workAt(harness, at(finding, second));
    expect(pass.escalations).toBe(1);
    expect(await workAt(harness, at(finding, 2 * second))).toMatchObject({ escalations: 0 });
    const after = await findingOf(team.coordinator, caseId, finding.id);
    expect(after.escalations).toBe(1);
    expect(levelNames(after, 1)).toEqual(["Ben Second", "escalate-coordinator Tester", "escalate-coordinator2 Tester"]);
    expect(after.nextEscalationAt).toBe(at(finding, 10 * minute).toISOString());
    const sent = after.recipients
      .filter((recipient) => recipient.level === 1)
      .flatMap((recipient) => recipient.deliveries.map((delivery) => delivery.status));
    expect(sent).toEqual(["sent", "sent", "sent"]);
    const coordinatorMail = await harness.app.messages.listOutbox({ recipient: "escalate-coordinator@vigil.test" });
    expect(coordinatorMail[0]?.body).toContain("as a Vigil coordinator");
  });

  it("repeats every interval with the next contact, then the coordinators alone once the list is spent", async () => {
    expect(await workAt(harness, at(finding, 10 * minute - second))).toMatchObject({ escalations: 0 });
    expect(await workAt(harness, at(finding, 10 * minute))).toMatchObject({ escalations: 1 });
    expect(await workAt(harness, at(finding, 20 * minute))).toMatchObject({ escalations: 1 });
    const after = await findingOf(team.coordinator, caseId, finding.id);
    expect(after.escalations).toBe(3);
    expect(levelNames(after, 2)[0]).toBe("Cy Third");
    expect(levelNames(after, 3)).toEqual(["escalate-coordinator Tester", "escalate-coordinator2 Tester"]);
    const audits = await auditRows(harness, "critical-finding.escalate", caseId);
    expect(audits.map((row) => (row.details as { level?: number } | null)?.level)).toEqual([1, 2, 3]);
    expect(audits.every((row) => row.actorUsername === null)).toBe(true);
  });

  it("sends one escalation after an outage, and the next a whole interval later", async () => {
    const back = at(finding, 3 * 60 * minute);
    expect(await workAt(harness, back)).toMatchObject({ escalations: 1 });
    expect(await workAt(harness, new Date(back.getTime() + 9 * minute))).toMatchObject({ escalations: 0 });
    const after = await findingOf(team.coordinator, caseId, finding.id);
    expect(after.nextEscalationAt).toBe(new Date(back.getTime() + 10 * minute).toISOString());
  });

  it("stops once the finding is acknowledged", async () => {
    const acknowledged = await team.coordinator("POST", `${findingsPath(caseId)}/${finding.id}/acknowledgement`, {
      body: { name: "Dr. Late", acknowledgedAt: new Date().toISOString(), readBackConfirmed: true },
    });
    expect(acknowledged.statusCode, acknowledged.body).toBe(200);
    expect(await workAt(harness, at(finding, 24 * 60 * minute))).toMatchObject({ escalations: 0 });
  });
});

describe("a cancelled finding", () => {
  it("is never escalated, however long after its window", async () => {
    const caseId = (await monitoredCase(harness, team, clientId)).id;
    const finding = await raiseFinding(team.technologist, caseId);
    const cancelled = await team.reviewer("POST", `${findingsPath(caseId)}/${finding.id}/cancellation`, {
      body: { reason: "Electrode artifact on review." },
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await workAt(harness, at(finding, 60 * minute))).toMatchObject({ escalations: 0 });
    const after = await findingOf(team.coordinator, caseId, finding.id);
    expect(after.escalations).toBe(0);
    expect(after.recipients.every((recipient) => recipient.level === 0)).toBe(true);
  });
});

describe("the window", () => {
  it("comes from the case's pinned protocol revision, not one the client wrote later", async () => {
    const caseId = (await monitoredCase(harness, team, clientId)).id;
    const current = await team.coordinator("GET", `/clients/${clientId}/protocol`);
    const revision = await team.coordinator("POST", `/clients/${clientId}/protocol/revisions`, {
      body: sampleProtocol({
        baseRevision: current.json().data.current.revision,
        criticalNotification: { notify: "", withinMinutes: 45 },
      }),
    });
    expect(revision.statusCode, revision.body).toBe(201);
    const finding = await raiseFinding(team.technologist, caseId);
    expect(finding.windowMinutes).toBe(15);
    const newer = await raiseFinding(team.technologist, (await monitoredCase(harness, team, clientId)).id);
    expect(newer.windowMinutes).toBe(45);
  });

  it("comes from the client's current revision when the case pinned none, else the default 30 minutes", async () => {
    // Cases pin the current revision when monitoring starts; one that pinned none is from before pinning existed.
    const unpinned = (await monitoredCase(harness, team, clientId)).id;
    await harness.database.db.update(cases).set({ protocolRevisionId: null }).where(eq(cases.id, unpinned));
    const current = await team.coordinator("GET", `/clients/${clientId}/protocol`);
    const finding = await raiseFinding(team.technologist, unpinned);
    expect(finding.windowMinutes).toBe(current.json().data.current.criticalNotification.withinMinutes);
    expect(Date.parse(finding.dueAt) - Date.parse(finding.raisedAt)).toBe(finding.windowMinutes * minute);

    const bare = await createClient(team.coordinator, { protocol: false });
    const opened = await openCase(team.coordinator, bare.id);
    await harness.database.db.update(cases).set({ stage: "monitoring" }).where(eq(cases.id, opened.id));
    expect((await raiseFinding(team.technologist, opened.id)).windowMinutes).toBe(30);
  });
});
