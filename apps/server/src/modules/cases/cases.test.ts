import type { AssignmentsPage, Case, CasePage, CaseTimeline } from "@vigil/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cases, users } from "../../db/schema.js";
import {
  auditRows,
  caseIn,
  createClient,
  openCase,
  sampleCase,
  type Team,
  teamFor,
  unknownId,
} from "../../testing/kits/cases-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

let harness: TestApp;
let team: Team;
let clientId: string;

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "cases");
  clientId = (await createClient(team.coordinator)).id;
});
afterAll(() => harness.close());

describe("POST cases", () => {
  it("opens a case in intake with a CM-<year>-<6 digits> number, the patient header and an ETag", async () => {
    const response = await team.coordinator("POST", "/cases", {
      body: sampleCase(clientId, { priority: "stat", studyType: "emu-video" }),
    });
    expect(response.statusCode, response.body).toBe(201);
    const created: Case = response.json().data;
    expect(created.caseNumber).toMatch(new RegExp(`^CM-${new Date().getUTCFullYear()}-\\d{6}$`));
    expect(created).toMatchObject({
      stage: "intake",
      priority: "stat",
      studyType: "emu-video",
      hasVideo: true,
      version: 1,
      client: { id: clientId },
      patient: { revision: 1, firstName: "Jordan", location: { unit: "Neuro ICU", room: "4", bed: "A" } },
      technologists: [],
      reviewer: null,
      protocolRevisionId: null,
      archivedAt: null,
      createdBy: { username: team.coordinator.username, name: `${team.coordinator.username} Tester` },
      pendingTransition: null,
    });
    expect(response.headers.etag).toBe('"1"');
  });

  it("numbers cases from one sequence, so concurrent creations never collide", async () => {
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => team.coordinator("POST", "/cases", { body: sampleCase(clientId) })),
    );
    const numbers = responses.map((response) => response.json().data.caseNumber);
    expect(responses.every((response) => response.statusCode === 201)).toBe(true);
    expect(new Set(numbers).size).toBe(8);
  });

  it("stores the patient details as revision 1 and audits the creation without patient data", async () => {
    const created = await openCase(team.coordinator, clientId);
    const [row] = await auditRows(harness, "case.create", created.id);
    expect(row).toMatchObject({ outcome: "success", actorUsername: team.coordinator.username, targetType: "case" });
    expect(JSON.stringify(row?.details)).not.toContain(created.patient?.mrn);
    const timeline: CaseTimeline = (await team.coordinator("GET", `/cases/${created.id}/timeline`)).json().data;
    expect(timeline.items).toEqual([
      expect.objectContaining({
        kind: "action",
        action: "create",
        actor: expect.objectContaining({ username: team.coordinator.username }),
      }),
    ]);
  });

  it("refuses an inactive client and an archived one with 409, an unknown one with 404", async () => {
    const inactive = await team.coordinator("POST", "/clients", {
      body: { name: "Closed Ward", code: `CW-${Date.now() % 100000}`, timezone: "UTC", status: "inactive" },
    });
    const inactiveCase = await team.coordinator("POST", "/cases", { body: sampleCase(inactive.json().data.id) });
    expect(inactiveCase.statusCode).toBe(409);
    expect(inactiveCase.json().error.message).toMatch(/inactive/);

    const archived = await createClient(team.coordinator);
    expect((await team.coordinator("DELETE", `/clients/${archived.id}`)).statusCode).toBe(200);
    const archivedCase = await team.coordinator("POST", "/cases", { body: sampleCase(archived.id) });
    expect(archivedCase.statusCode).toBe(409);
    expect(archivedCase.json().error.message).toMatch(/archived/);

    const unknown = await team.coordinator("POST", "/cases", { body: sampleCase(unknownId) });
    expect(unknown.statusCode).toBe(404);
  });

  it("names each invalid field with 400 and writes nothing", async () => {
    const before = await harness.database.db.select().from(cases);
    const body = sampleCase(clientId);
    const response = await team.coordinator("POST", "/cases", {
      body: { ...body, studyType: "eeg", patient: { ...body.patient, mrn: "", dateOfBirth: "14/03/1957" } },
    });
    expect(response.statusCode).toBe(400);
    const paths = response.json().error.details.issues.map((issue: { path: string }) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(["body.studyType", "body.patient.mrn", "body.patient.dateOfBirth"]));
    expect(await harness.database.db.select().from(cases)).toHaveLength(before.length);
  });

  it("refuses a date of birth that has not come yet, judged on the day of the request", async () => {
    const body = sampleCase(clientId);
    const future = await team.coordinator("POST", "/cases", {
      body: { ...body, patient: { ...body.patient, dateOfBirth: "2099-01-01" } },
    });
    expect(future.statusCode).toBe(400);
    expect(future.json().error.details.issues).toEqual([
      { path: "body.patient.dateOfBirth", message: "must not be in the future" },
    ]);
    // Two days after the UTC date has begun nowhere yet; the UTC date has begun at least in UTC: a birthday.
    const dayAfterTomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const notYet = await team.coordinator("POST", "/cases", {
      body: { ...body, patient: { ...body.patient, dateOfBirth: dayAfterTomorrow } },
    });
    expect(notYet.statusCode).toBe(400);
    const today = new Date().toISOString().slice(0, 10);
    const newborn = await team.coordinator("POST", "/cases", {
      body: { ...body, patient: { ...body.patient, dateOfBirth: today } },
    });
    expect(newborn.statusCode, newborn.body).toBe(201);
  });

  it("is for coordinators and administrators only", async () => {
    for (const group of ["technologist", "reviewer", "billing", "developer"] as const) {
      const response = await team[group]("POST", "/cases", { body: sampleCase(clientId) });
      expect(response.statusCode, group).toBe(403);
    }
  });

  it("blocks archiving the client while the new case is open", async () => {
    const client = await createClient(team.coordinator);
    await openCase(team.coordinator, client.id);
    const response = await team.coordinator("DELETE", `/clients/${client.id}`);
    expect(response.statusCode).toBe(409);
    expect(response.json().error.details.openCaseCount).toBe(1);
  });

  it("never lets a case slip in beside a concurrent archive of its client", async () => {
    const client = await createClient(team.coordinator);
    const [archived, created] = await Promise.all([
      team.coordinator("DELETE", `/clients/${client.id}`),
      team.coordinator("POST", "/cases", { body: sampleCase(client.id) }),
    ]);
    // Either the case came first (archive refused) or the archive did (case refused): never both.
    const outcome = `${archived.statusCode}/${created.statusCode}`;
    expect(["200/409", "409/201"]).toContain(outcome);
  });
});

describe("GET cases/{id}", () => {
  it("answers the case with its ETag to every case reader, and 404 for an unknown id", async () => {
    const created = await openCase(team.coordinator, clientId);
    for (const group of ["admin", "coordinator", "technologist", "reviewer", "billing"] as const) {
      const response = await team[group]("GET", `/cases/${created.id}`);
      expect(response.statusCode, group).toBe(200);
      expect(response.headers.etag).toBe('"1"');
    }
    expect((await team.developer("GET", `/cases/${created.id}`)).statusCode).toBe(403);
    expect((await team.admin("GET", `/cases/${unknownId}`)).statusCode).toBe(404);
  });

  it("audits every read of patient data, including refused ones", async () => {
    const created = await openCase(team.coordinator, clientId);
    await team.reviewer("GET", `/cases/${created.id}`);
    await team.developer("GET", `/cases/${created.id}`);
    const rows = await auditRows(harness, "patient-data.read", created.id);
    expect(rows.map((row) => [row.actorUsername, row.outcome])).toEqual([
      [team.reviewer.username, "success"],
      [team.developer.username, "denied"],
    ]);
    expect(rows[0]?.details).toMatchObject({ route: "getCase", method: "GET", status: 200 });
    expect(rows[0]?.ip).toBeTruthy();
  });

  it("audits anonymous attempts too", async () => {
    const created = await openCase(team.coordinator, clientId);
    const response = await harness.app.inject({ method: "GET", url: `/api/continuous-monitoring/cases/${created.id}` });
    expect(response.statusCode).toBe(401);
    const rows = await auditRows(harness, "patient-data.read", created.id);
    expect(rows.at(-1)).toMatchObject({ actorUsername: null, outcome: "denied" });
  });

  it("audits queue reads", async () => {
    await team.billing("GET", "/cases/closed?limit=5");
    const rows = await auditRows(harness, "patient-data.read");
    expect(rows.some((row) => (row.details as { route: string }).route === "listClosedCases")).toBe(true);
  });
});

describe("PATCH cases/{id}", () => {
  it("needs If-Match: 428 without it, 412 with a stale one (with the current case)", async () => {
    const created = await openCase(team.coordinator, clientId);
    const missing = await team.coordinator("PATCH", `/cases/${created.id}`, { body: { hasVideo: false } });
    expect(missing.statusCode).toBe(428);
    const updated = await team.coordinator("PATCH", `/cases/${created.id}`, { body: { hasVideo: false }, ifMatch: 1 });
    expect(updated.statusCode, updated.body).toBe(200);
    const stale = await team.coordinator("PATCH", `/cases/${created.id}`, { body: { priority: "stat" }, ifMatch: 1 });
    expect(stale.statusCode).toBe(412);
    expect(stale.json().error.details.current).toMatchObject({ id: created.id, version: 2, hasVideo: false });
    expect(stale.headers.etag).toBe('"2"');
  });

  it("changes only the fields sent and audits the changes", async () => {
    const created = await openCase(team.coordinator, clientId);
    const startedAt = new Date(Date.now() - 7_200_000).toISOString();
    const endedAt = new Date(Date.now() - 600_000).toISOString();
    // A coordinator: the study type is an intake detail, which technologists may not change (case-field-access.test).
    const response = await team.coordinator("PATCH", `/cases/${created.id}`, {
      ifMatch: '"1"',
      body: { studyType: "ambulatory", recordingStartedAt: startedAt, recordingEndedAt: endedAt },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({
      studyType: "ambulatory",
      hasVideo: true,
      priority: "routine",
      recordingStartedAt: startedAt,
      recordingEndedAt: endedAt,
      version: 2,
    });
    expect(response.headers.etag).toBe('"2"');
    const [row] = await auditRows(harness, "case.update", created.id);
    expect(row?.details).toMatchObject({
      changes: { studyType: { from: "icu-ceeg", to: "ambulatory" }, recordingEndedAt: { from: null, to: endedAt } },
    });
  });

  it("refuses recording times that do not make sense with 400 naming the field", async () => {
    const created = await openCase(team.coordinator, clientId);
    const noStart = await team.coordinator("PATCH", `/cases/${created.id}`, {
      ifMatch: 1,
      body: { recordingEndedAt: new Date().toISOString() },
    });
    expect(noStart.statusCode).toBe(400);
    expect(noStart.json().error.details.issues[0].path).toBe("body.recordingEndedAt");
    const backwards = await team.coordinator("PATCH", `/cases/${created.id}`, {
      ifMatch: 1,
      body: { recordingStartedAt: "2026-01-02T00:00:00Z", recordingEndedAt: "2026-01-01T00:00:00Z" },
    });
    expect(backwards.statusCode).toBe(400);
    const future = await team.coordinator("PATCH", `/cases/${created.id}`, {
      ifMatch: 1,
      body: { recordingStartedAt: new Date(Date.now() + 86_400_000).toISOString() },
    });
    expect(future.statusCode).toBe(400);
  });

  it("leaves closed cases alone (409) and is not for reviewers or billing (403)", async () => {
    const closed = await caseIn(harness, team, clientId, "closed");
    const response = await team.coordinator("PATCH", `/cases/${closed.id}`, {
      ifMatch: closed.version,
      body: { hasVideo: false },
    });
    expect(response.statusCode).toBe(409);
    for (const group of ["reviewer", "billing"] as const) {
      expect((await team[group]("PATCH", `/cases/${closed.id}`, { ifMatch: 1, body: {} })).statusCode).toBe(403);
    }
  });
});

describe("DELETE cases/{id} (archive)", () => {
  it("archives an intake case for a coordinator, audits it and hides it from the queue", async () => {
    const created = await openCase(team.coordinator, clientId, { priority: "stat" });
    const response = await team.coordinator("DELETE", `/cases/${created.id}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.archivedAt).not.toBeNull();
    expect(await auditRows(harness, "case.archive", created.id)).toHaveLength(1);
    const queue: CasePage = (await team.coordinator("GET", `/cases/intake?clientId=${clientId}&limit=200`)).json().data;
    expect(queue.items.map((item) => item.id)).not.toContain(created.id);
    const again = await team.coordinator("DELETE", `/cases/${created.id}`);
    expect(again.statusCode).toBe(409);
    const actions = await team.coordinator("POST", `/cases/${created.id}/actions`, {
      body: { action: "set-priority", priority: "routine" },
    });
    expect(actions.statusCode).toBe(409);
    expect(actions.json().error.details.failedChecks).toContain("case-not-archived");
  });

  it("refuses a coordinator past intake (403) but lets an administrator archive in any stage", async () => {
    const monitoring = await caseIn(harness, team, clientId, "monitoring");
    const refused = await team.coordinator("DELETE", `/cases/${monitoring.id}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toMatch(/only cases still in intake/);
    const archived = await team.admin("DELETE", `/cases/${monitoring.id}`);
    expect(archived.statusCode).toBe(200);
    expect(archived.json().data.stage).toBe("monitoring");
  });

  it("is refused to technologists, reviewers and billing", async () => {
    const created = await openCase(team.coordinator, clientId);
    for (const group of ["technologist", "reviewer", "billing"] as const) {
      expect((await team[group]("DELETE", `/cases/${created.id}`)).statusCode, group).toBe(403);
    }
  });
});

describe("stage queues", () => {
  let queueClient: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    queueClient = (await createClient(team.coordinator)).id;
    // Oldest first in creation order; the STAT one is the newest.
    ids.routineOld = (await openCase(team.coordinator, queueClient)).id;
    ids.routineNew = (await openCase(team.coordinator, queueClient)).id;
    ids.stat = (await openCase(team.coordinator, queueClient, { priority: "stat" })).id;
    const stamps = [ids.routineOld, ids.routineNew, ids.stat];
    for (const [index, id] of stamps.entries()) {
      await harness.database.db
        .update(cases)
        .set({ createdAt: new Date(Date.UTC(2026, 0, 1 + index)) })
        .where(eq(cases.id, id as string));
    }
    const assigned = await team.coordinator("POST", `/cases/${ids.routineNew}/actions`, {
      body: { action: "assign-technologist", technologistId: team.technologist2.sub },
    });
    expect(assigned.statusCode).toBe(200);
    const reviewer = await team.coordinator("POST", `/cases/${ids.routineOld}/actions`, {
      body: { action: "assign-reviewer", reviewerId: team.reviewer2.sub },
    });
    expect(reviewer.statusCode).toBe(200);
  });

  async function queue(query: string): Promise<CasePage> {
    const response = await team.reviewer("GET", `/cases/intake?clientId=${queueClient}&${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  }

  it("puts STAT first, then the oldest first", async () => {
    const page = await queue("");
    expect(page.items.map((item) => item.id)).toEqual([ids.stat, ids.routineOld, ids.routineNew]);
    expect(page).toMatchObject({ total: 3, limit: 50, offset: 0 });
    expect(page.items[0]).toMatchObject({ priority: "stat", clientCode: expect.any(String), mrn: expect.any(String) });
  });

  it("pages on the server", async () => {
    const first = await queue("limit=2&offset=0");
    const second = await queue("limit=2&offset=2");
    expect(first.items).toHaveLength(2);
    expect(second.items.map((item) => item.id)).toEqual([ids.routineNew]);
    expect(second.total).toBe(3);
  });

  it("filters by priority, technologist, reviewer and creation date", async () => {
    expect((await queue("priority=stat")).items.map((item) => item.id)).toEqual([ids.stat]);
    const byTechnologist = await queue(`technologistId=${team.technologist2.sub}`);
    expect(byTechnologist.items.map((item) => item.id)).toEqual([ids.routineNew]);
    expect(byTechnologist.items[0]?.technologists).toEqual([
      expect.objectContaining({ username: team.technologist2.username }),
    ]);
    expect((await queue(`reviewerId=${team.reviewer2.sub}`)).items.map((item) => item.id)).toEqual([ids.routineOld]);
    const dated = await queue("createdFrom=2026-01-01T12:00:00Z&createdTo=2026-01-02T12:00:00Z");
    expect(dated.items.map((item) => item.id)).toEqual([ids.routineNew]);
  });

  it("searches by case number, MRN and patient name", async () => {
    const subject: Case = (await team.reviewer("GET", `/cases/${ids.routineOld}`)).json().data;
    const byNumber = await queue(`search=${subject.caseNumber.toLowerCase()}`);
    expect(byNumber.items.map((item) => item.id)).toEqual([ids.routineOld]);
    const byMrn = await queue(`search=${subject.patient?.mrn}`);
    expect(byMrn.items.map((item) => item.id)).toEqual([ids.routineOld]);
    const byName = await queue(`search=${subject.patient?.lastName}`);
    expect(byName.items.map((item) => item.id)).toEqual([ids.routineOld]);
    expect((await queue("search=nobody%25")).total).toBe(0);
  });

  it("sorts by other columns when asked", async () => {
    const newest = await queue("sort=createdAt&order=desc");
    expect(newest.items.map((item) => item.id)).toEqual([ids.stat, ids.routineNew, ids.routineOld]);
  });

  it("shows a case's times, people and version in its queue row as the case screen has them", async () => {
    const ownClient = (await createClient(team.coordinator)).id;
    const created = await caseIn(harness, team, ownClient, "monitoring");
    const detail: Case = (await team.coordinator("GET", `/cases/${created.id}`)).json().data;
    const queue: CasePage = (await team.coordinator("GET", `/cases/monitoring?clientId=${ownClient}`)).json().data;
    expect(queue.items).toHaveLength(1);
    const [row] = queue.items;
    expect(row).toMatchObject({
      id: detail.id,
      caseNumber: detail.caseNumber,
      createdAt: detail.createdAt,
      updatedAt: detail.updatedAt,
      acknowledgedAt: detail.acknowledgedAt,
      recordingStartedAt: detail.recordingStartedAt,
      recordingEndedAt: detail.recordingEndedAt,
      reviewer: detail.reviewer,
      version: detail.version,
      hasPendingTransition: false,
      technologists: detail.technologists
        .filter((assignment) => assignment.endedAt === null)
        .map((assignment) => assignment.technologist),
    });
    expect(row?.recordingStartedAt).not.toBeNull();
    expect(row?.technologists).toHaveLength(1);
    expect(row?.updatedAt).not.toBe(row?.createdAt);
  });

  it("serves every stage's queue and refuses bad filters with 400", async () => {
    for (const stage of ["intake", "monitoring", "preview", "reviewed", "closed"]) {
      const response = await team.billing("GET", `/cases/${stage}`);
      expect(response.statusCode, stage).toBe(200);
      for (const item of response.json().data.items) expect(item.stage).toBe(stage);
    }
    const bad = await team.billing("GET", "/cases/intake?priority=urgent&limit=500");
    expect(bad.statusCode).toBe(400);
  });
});

describe("case actions", () => {
  it("assigns and unassigns technologists, checking them through the identity service", async () => {
    const created = await openCase(team.coordinator, clientId);
    const url = `/cases/${created.id}/actions`;
    const assigned = await team.coordinator("POST", url, {
      body: { action: "assign-technologist", technologistId: team.technologist.sub, version: 1 },
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    const withTechnologist: Case = assigned.json().data;
    expect(withTechnologist.technologists).toEqual([
      expect.objectContaining({ technologist: expect.objectContaining({ username: team.technologist.username }) }),
    ]);
    const twice = await team.coordinator("POST", url, {
      body: { action: "assign-technologist", technologistId: team.technologist.sub },
    });
    expect(twice.statusCode).toBe(409);
    const notTechnologist = await team.coordinator("POST", url, {
      body: { action: "assign-technologist", technologistId: team.reviewer.sub },
    });
    expect(notTechnologist.statusCode).toBe(422);
    expect(notTechnologist.json().error.details.issues[0].path).toBe("body.technologistId");
    const assignmentId = withTechnologist.technologists[0]?.id;
    const ended = await team.coordinator("POST", url, { body: { action: "end-assignment", assignmentId } });
    expect(ended.statusCode).toBe(200);
    expect(ended.json().data.technologists).toEqual([]);
    const endedAgain = await team.coordinator("POST", url, { body: { action: "end-assignment", assignmentId } });
    expect(endedAgain.statusCode).toBe(409);
  });

  it("refuses a disabled technologist", async () => {
    const created = await openCase(team.coordinator, clientId);
    await harness.addUser("cases-disabled-tech", ["technologist"]);
    // Disabled directly: the users module's own API is tested elsewhere.
    const rows = await harness.database.db
      .update(users)
      .set({ enabled: false })
      .where(eq(users.username, "cases-disabled-tech"))
      .returning({ sub: users.sub });
    const response = await team.coordinator("POST", `/cases/${created.id}/actions`, {
      body: { action: "assign-technologist", technologistId: rows[0]?.sub },
    });
    expect(response.statusCode).toBe(422);
  });

  it("assigns a reviewer and sets the priority; a stale version is a 409", async () => {
    const created = await openCase(team.coordinator, clientId);
    const url = `/cases/${created.id}/actions`;
    const reviewer = await team.coordinator("POST", url, {
      body: { action: "assign-reviewer", reviewerId: team.reviewer2.sub },
    });
    expect(reviewer.json().data.reviewer).toMatchObject({ username: team.reviewer2.username });
    const stale = await team.coordinator("POST", url, {
      body: { action: "set-priority", priority: "stat", version: 1 },
    });
    expect(stale.statusCode).toBe(409);
    const stat = await team.coordinator("POST", url, {
      body: { action: "set-priority", priority: "stat", version: 2 },
    });
    expect(stat.statusCode).toBe(200);
    expect(stat.json().data).toMatchObject({ priority: "stat", version: 3 });
    const same = await team.coordinator("POST", url, { body: { action: "set-priority", priority: "stat" } });
    expect(same.statusCode).toBe(409);
    expect(same.json().error.details.failedChecks).toEqual(["priority-changes"]);
  });

  it("lets a reviewer acknowledge a STAT case once, taking it when it has no reviewer", async () => {
    const routine = await openCase(team.coordinator, clientId);
    const refused = await team.reviewer("POST", `/cases/${routine.id}/actions`, { body: { action: "acknowledge" } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.details.failedChecks).toEqual(["stat-priority"]);

    const stat = await openCase(team.coordinator, clientId, { priority: "stat" });
    const url = `/cases/${stat.id}/actions`;
    const taken = await team.reviewer("POST", url, { body: { action: "acknowledge" } });
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json().data).toMatchObject({
      acknowledgedBy: { username: team.reviewer.username },
      reviewer: { username: team.reviewer.username },
    });
    const again = await team.reviewer2("POST", url, { body: { action: "acknowledge" } });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.details.failedChecks).toEqual(["not-acknowledged"]);
  });

  it("refuses actions outside the caller's permissions with 403", async () => {
    const created = await openCase(team.coordinator, clientId, { priority: "stat" });
    const url = `/cases/${created.id}/actions`;
    const asTechnologist = await team.technologist("POST", url, {
      body: { action: "assign-technologist", technologistId: team.technologist.sub },
    });
    expect(asTechnologist.statusCode).toBe(403);
    const asBilling = await team.billing("POST", url, { body: { action: "set-priority", priority: "routine" } });
    expect(asBilling.statusCode).toBe(403);
    const asCoordinator = await team.coordinator("POST", url, { body: { action: "acknowledge" } });
    expect(asCoordinator.statusCode).toBe(403);
    expect((await team.developer("POST", url, { body: { action: "acknowledge" } })).statusCode).toBe(403);
  });

  it("writes every action to the timeline and the audit log in order", async () => {
    const created = await openCase(team.coordinator, clientId);
    const url = `/cases/${created.id}/actions`;
    await team.coordinator("POST", url, {
      body: { action: "assign-technologist", technologistId: team.technologist.sub },
    });
    await team.coordinator("POST", url, { body: { action: "assign-reviewer", reviewerId: team.reviewer.sub } });
    await team.technologist("POST", `/cases/${created.id}/transitions`, { body: { to: "monitoring" } });
    const timeline: CaseTimeline = (await team.billing("GET", `/cases/${created.id}/timeline`)).json().data;
    expect(
      timeline.items.map((entry) =>
        entry.kind === "transition"
          ? `move:${entry.transition.to}`
          : entry.kind === "action"
            ? entry.action
            : entry.action,
      ),
    ).toEqual(["create", "assign-technologist", "assign-reviewer", "move:monitoring"]);
    expect(timeline.items.at(-1)?.actor.username).toBe(team.technologist.username);
    expect(await auditRows(harness, "case.assign-technologist", created.id)).toHaveLength(1);
    expect(await auditRows(harness, "case.assign-reviewer", created.id)).toHaveLength(1);
  });
});

describe("GET cases/assignments", () => {
  it("lists active assignments per technologist with their load", async () => {
    const client = await createClient(team.coordinator);
    const monitoring = await caseIn(harness, team, client.id, "monitoring", { priority: "stat" });
    const intake = await caseIn(harness, team, client.id, "intake");
    const closed = await caseIn(harness, team, client.id, "closed");
    const response = await team.reviewer("GET", `/cases/assignments?clientId=${client.id}`);
    expect(response.statusCode, response.body).toBe(200);
    const page: AssignmentsPage = response.json().data;
    expect(page.total).toBe(1);
    const [row] = page.items;
    expect(row?.technologist.username).toBe(team.technologist.username);
    expect(row?.load).toEqual({ active: 2, monitoring: 1, stat: 1 });
    expect(row?.assignments.map((assignment) => assignment.caseId)).toEqual([monitoring.id, intake.id]);
    expect(row?.assignments.map((assignment) => assignment.caseId)).not.toContain(closed.id);

    const filtered = await team.reviewer(
      "GET",
      `/cases/assignments?technologistId=${team.technologist2.sub}&clientId=${client.id}`,
    );
    expect(filtered.json().data.total).toBe(0);
  });
});

describe("GET /users/continuous-monitoring/reviewers", () => {
  it("lists enabled reviewers for the picker", async () => {
    const response = await team.coordinator("GET", "/api/users/continuous-monitoring/reviewers?search=cases-reviewer");
    expect(response.statusCode).toBe(200);
    expect(
      response
        .json()
        .data.items.map((item: { username: string }) => item.username)
        .sort(),
    ).toEqual([team.reviewer.username, team.reviewer2.username]);
  });
});
