import { type AuditEvent, type Case, type User, userEtag } from "@vigil/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents } from "../../db/schema.js";
import { caseIn, createClient, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { collectionOf, createItem } from "../../testing/kits/records-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

let harness: TestApp;
let adminToken: string;
let startedAt: string;

beforeAll(async () => {
  // The tests speak through a proxy that reports the client's address, as a deployment behind one does.
  harness = await createTestApp({ TRUST_PROXY: "127.0.0.1" });
  adminToken = await harness.tokenFor("auditor", ["admin"]);
  startedAt = new Date().toISOString();
  // Three administrative actions by "auditor" on "pat", from a known address and browser.
  await harness.addUser("pat", ["technologist"]);
  const headers = {
    authorization: `Bearer ${adminToken}`,
    "user-agent": "AuditTest/2.0",
    "x-forwarded-for": "203.0.113.7",
  };
  const pat = (await harness.app.inject({ method: "GET", url: "/api/users/pat", headers })).json().data as User;
  const grouped = await harness.app.inject({
    method: "PUT",
    url: "/api/users/pat/access-groups",
    headers: { ...headers, "if-match": userEtag(pat) },
    payload: { groups: ["technologist", "reviewer"] },
  });
  expect(grouped.statusCode).toBe(200);
  const disabled = await harness.app.inject({
    method: "PUT",
    url: "/api/users/pat/toggle",
    headers: { ...headers, "if-match": userEtag(grouped.json().data) },
    payload: { isEnabled: false },
  });
  expect(disabled.statusCode).toBe(200);
  // Refused: the only admin may not disable themselves.
  const auditor = (await harness.app.inject({ method: "GET", url: "/api/users/auditor", headers })).json().data;
  const refused = await harness.app.inject({
    method: "PUT",
    url: "/api/users/auditor/toggle",
    headers: { ...headers, "if-match": userEtag(auditor) },
    payload: { isEnabled: false },
  });
  expect(refused.statusCode).toBe(409);
});
afterAll(() => harness.close());

async function audit(query: string, token = adminToken) {
  return harness.app.inject({
    method: "GET",
    url: `/api/audit?${query}`,
    headers: { authorization: `Bearer ${token}` },
  });
}

async function entries(query: string): Promise<{ items: AuditEvent[]; total: number }> {
  const response = await audit(query);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

describe("GET /api/audit", () => {
  it("records each admin action with actor, target, address, browser and outcome, newest first", async () => {
    // The sign-in service audits too (auth.*); these are the administrative entries.
    const items = (await entries("user=auditor&targetType=user")).items.filter((entry) =>
      entry.action.startsWith("user."),
    );
    expect(items.map((entry) => [entry.action, entry.outcome, entry.target?.id])).toEqual([
      ["user.disable", "failure", "auditor"],
      ["user.disable", "success", "pat"],
      ["user.access-groups", "success", "pat"],
    ]);
    const [, disabled, grouped] = items;
    expect(grouped).toMatchObject({
      actor: { username: "auditor" },
      ip: "203.0.113.7",
      userAgent: "AuditTest/2.0",
      details: { from: ["technologist"], to: ["technologist", "reviewer"], added: ["reviewer"], removed: [] },
    });
    expect(grouped?.actor.sub).toMatch(/^[0-9a-f-]{36}$/);
    expect(disabled?.details).toMatchObject({ wasEnabled: true, revokedSessions: 0 });
    expect(items[0]?.details?.reason).toMatch(/last enabled administrator/);
  });

  it("filters by action, target, outcome, and actor in any case", async () => {
    expect((await entries("action=user.access-groups")).items).toHaveLength(1);
    expect((await entries("targetType=user&targetId=pat")).items.map((entry) => entry.action)).toEqual([
      "user.disable",
      "user.access-groups",
      "user.create",
    ]);
    expect((await entries("outcome=failure&user=AUDITOR")).items.map((entry) => entry.target?.id)).toEqual(["auditor"]);
  });

  it("filters by time, from inclusive and to exclusive", async () => {
    const all = await entries("limit=200");
    expect(all.items.length).toBeGreaterThan(3);
    const newest = all.items[0]?.at as string;
    expect((await entries(`from=${encodeURIComponent(newest)}`)).items.every((entry) => entry.at >= newest)).toBe(true);
    expect((await entries(`to=${encodeURIComponent(newest)}`)).items.every((entry) => entry.at < newest)).toBe(true);
    expect((await entries(`to=${encodeURIComponent(startedAt)}&action=user.disable`)).total).toBe(0);
    expect((await entries("from=2199-01-01T00:00:00Z")).total).toBe(0);
  });

  it("pages with the total", async () => {
    const total = (await entries("limit=1")).total;
    const second = await entries("limit=1&offset=1");
    expect(second.items).toHaveLength(1);
    expect(second.total).toBe(total);
  });

  it("reads entries the sign-in service wrote too, and keeps details that are not objects", async () => {
    await harness.database.db.insert(auditEvents).values({ action: "test.odd", outcome: "success", details: [1, 2] });
    const [odd] = (await entries("action=test.odd")).items;
    expect(odd).toMatchObject({ actor: { sub: null, username: null }, target: null, details: { value: [1, 2] } });
  });

  it("answers 400 naming the field for a bad time or outcome, and 403 without audit:read", async () => {
    const badTime = await audit("from=yesterday");
    expect(badTime.statusCode).toBe(400);
    expect(badTime.json().error.details.issues[0].path).toBe("querystring.from");
    expect((await audit("outcome=maybe")).statusCode).toBe(400);
    const coordinator = await harness.tokenFor("curious", ["coordinator"]);
    expect((await audit("", coordinator)).statusCode).toBe(403);
  });
});

describe("GET /api/audit by case and by client", () => {
  let team: Team;
  let clientId: string;
  let otherClientId: string;
  let subject: Case;
  let sibling: Case;
  let stranger: Case;
  let noteId: string;

  beforeAll(async () => {
    team = await teamFor(harness, "scope");
    clientId = (await createClient(team.coordinator)).id;
    otherClientId = (await createClient(team.coordinator)).id;
    subject = await caseIn(harness, team, clientId, "monitoring");
    sibling = await caseIn(harness, team, clientId, "monitoring");
    stranger = await caseIn(harness, team, otherClientId, "monitoring");
    // A record write (its own event and the patient-data write) and two patient-data reads of the subject.
    noteId = (await createItem(team.technologist, "case-note", subject.id)).id;
    expect((await team.reviewer("GET", collectionOf("case-note", subject.id))).statusCode).toBe(200);
    expect((await team.reviewer("GET", `/cases/${subject.id}`)).statusCode).toBe(200);
    // Activity elsewhere that must not show up: the other client's case, read and written.
    await createItem(team.technologist, "case-note", stranger.id);
    expect((await team.reviewer("GET", `/cases/${stranger.id}`)).statusCode).toBe(200);
    const contact = await team.coordinator("POST", `/clients/${clientId}/contacts`, {
      body: { name: "Dr. Ana Ortiz", role: "ICU attending", email: "ana@riverside.example", phone: "+13125550111" },
    });
    expect(contact.statusCode, contact.body).toBe(201);
    // An event about one of the case's items rather than the case: found through details.caseId.
    await harness.database.db.insert(auditEvents).values({
      action: "test.record-export",
      outcome: "success",
      targetType: "case-record",
      targetId: noteId,
      details: { caseId: subject.id },
    });
  });

  it("finds a case's record writes, patient-data reads and its own events, and nothing of other cases", async () => {
    const { items, total } = await entries(`caseId=${subject.id}&limit=200`);
    expect(total).toBe(items.length);
    const actions = items.map((entry) => entry.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        "case.create",
        "case-record.create",
        "patient-data.write",
        "patient-data.read",
        "test.record-export",
      ]),
    );
    // The reviewer's two reads: the case and its case notes.
    const reads = items.filter(
      (entry) => entry.action === "patient-data.read" && entry.actor.username === team.reviewer.username,
    );
    expect(reads.map((entry) => entry.details?.url)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`/cases/${subject.id}$`)),
        expect.stringMatching(/\/case-notes$/),
      ]),
    );
    const recordWrite = items.find((entry) => entry.action === "case-record.create");
    expect(recordWrite).toMatchObject({
      actor: { username: team.technologist.username },
      target: { type: "case", id: subject.id },
      details: { kind: "case-note", itemId: noteId, caseNumber: subject.caseNumber },
    });
    // Every entry is about the subject, by target or by details.
    for (const entry of items) {
      expect(entry.target?.id === subject.id || entry.details?.caseId === subject.id, entry.action).toBe(true);
    }
  });

  it("accepts the case id in any letter case and combines with the other filters", async () => {
    const upper = await entries(`caseId=${subject.id.toUpperCase()}&action=patient-data.read`);
    expect(upper.total).toBeGreaterThanOrEqual(2);
    expect(upper.items.every((entry) => entry.action === "patient-data.read")).toBe(true);
    expect((await entries(`caseId=${subject.id}&user=${team.billing.username}`)).total).toBe(0);
  });

  it("finds a client's own events and those of all its cases, not another client's", async () => {
    const { items } = await entries(`clientId=${clientId}&limit=200`);
    const byTarget = (id: string) => items.filter((entry) => entry.target?.id === id).map((entry) => entry.action);
    expect(byTarget(clientId)).toEqual(expect.arrayContaining(["client.create"]));
    expect(byTarget(subject.id)).toEqual(
      expect.arrayContaining(["case.create", "case-record.create", "patient-data.read", "patient-data.write"]),
    );
    expect(byTarget(sibling.id)).toEqual(expect.arrayContaining(["case.create"]));
    // A contact's events name the client in their details; an item's event names its case.
    expect(items.find((entry) => entry.action === "contact.create")?.details?.clientId).toBe(clientId);
    expect(items.some((entry) => entry.action === "test.record-export")).toBe(true);
    expect(items.some((entry) => entry.target?.id === stranger.id || entry.target?.id === otherClientId)).toBe(false);

    const other = await entries(`clientId=${otherClientId}&limit=200`);
    expect(other.items.some((entry) => entry.target?.id === stranger.id)).toBe(true);
    expect(other.items.some((entry) => entry.target?.id === subject.id)).toBe(false);
  });

  it("answers 400 naming the field for an id that is not a uuid, and nothing for an unknown one", async () => {
    const bad = await audit("caseId=CM-2026-000001");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.issues[0].path).toBe("querystring.caseId");
    expect((await audit("clientId=nope")).statusCode).toBe(400);
    expect((await entries("clientId=00000000-0000-4000-8000-000000000000")).total).toBe(0);
  });
});
