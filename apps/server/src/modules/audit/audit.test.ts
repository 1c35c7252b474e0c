import { type AuditEvent, type User, userEtag } from "@vigil/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents } from "../../db/schema.js";
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
    expect((await entries("from=2999-01-01T00:00:00Z")).total).toBe(0);
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
