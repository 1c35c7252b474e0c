import type { User } from "@vigil/contract";
import { userEtag } from "@vigil/contract";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents } from "../../db/schema.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

let harness: TestApp;
let adminToken: string;
let neurologistToken: string;
let otherToken: string;

beforeAll(async () => {
  harness = await createTestApp();
  adminToken = await harness.tokenFor("root", ["admin"]);
  neurologistToken = await harness.tokenFor("neuro", ["reviewer"]);
  otherToken = await harness.tokenFor("other", ["reviewer"]);
});
afterAll(() => harness.close());

async function currentUser(username: string): Promise<User> {
  const response = await harness.app.inject({
    url: `/api/users/${username}`,
    headers: { authorization: `Bearer ${adminToken}` },
  });
  return response.json().data as User;
}

function putProfessional(token: string, username: string, body: unknown, ifMatch?: string) {
  return harness.app.inject({
    method: "PUT",
    url: `/api/users/${username}/professional`,
    headers: { authorization: `Bearer ${token}`, ...(ifMatch ? { "if-match": ifMatch } : {}) },
    payload: body as Record<string, unknown>,
  });
}

const professional = {
  familyName: "Okafor",
  givenNames: ["Adaeze", "N."],
  npi: "1234567893",
  credentials: "MD, PhD",
  boardCertifications: ["ABPN Neurology", "ABPN Epilepsy"],
};

describe("PUT /api/users/:username/professional", () => {
  it("starts empty, so every existing user keeps working", async () => {
    expect((await currentUser("neuro")).professional).toEqual({
      familyName: null,
      givenNames: [],
      npi: null,
      credentials: null,
      boardCertifications: [],
    });
  });

  it("lets users set their own, audited with each changed field's old and new value", async () => {
    const before = await currentUser("neuro");
    const response = await putProfessional(neurologistToken, "neuro", professional, userEtag(before));
    expect(response.statusCode).toBe(200);
    const after = response.json().data as User;
    expect(after.professional).toEqual(professional);
    expect(after.name).toBe(before.name);
    expect(response.headers.etag).toBe(userEtag(after));
    const [event] = await harness.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "user.set-professional"), eq(auditEvents.targetId, "neuro")));
    expect(event?.outcome).toBe("success");
    expect(event?.actorUsername).toBe("neuro");
    expect(event?.details).toMatchObject({
      changed: ["familyName", "givenNames", "npi", "credentials", "boardCertifications"],
      npi: { from: null, to: "1234567893" },
      credentials: { from: null, to: "MD, PhD" },
    });
  });

  it("lets an administrator change anyone's, and clears a field with null or an empty list", async () => {
    const before = await currentUser("neuro");
    const response = await putProfessional(
      adminToken,
      "neuro",
      { ...professional, npi: null, boardCertifications: [] },
      userEtag(before),
    );
    expect(response.statusCode).toBe(200);
    expect((response.json().data as User).professional).toMatchObject({ npi: null, boardCertifications: [] });
    const events = await harness.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "user.set-professional"), eq(auditEvents.actorUsername, "root")));
    expect(events.map((event) => event.details)).toEqual([
      {
        changed: ["npi", "boardCertifications"],
        npi: { from: "1234567893", to: null },
        boardCertifications: { from: professional.boardCertifications, to: [] },
      },
    ]);
  });

  it("answers 404 to a user without users:manage changing someone else's, and changes nothing", async () => {
    const before = await currentUser("neuro");
    const response = await putProfessional(otherToken, "neuro", professional, userEtag(before));
    expect(response.statusCode).toBe(404);
    expect((await currentUser("neuro")).updatedAt).toBe(before.updatedAt);
  });

  it("refuses an NPI whose check digit does not match, naming the field", async () => {
    const before = await currentUser("neuro");
    const response = await putProfessional(
      neurologistToken,
      "neuro",
      { ...professional, npi: "1234567890" },
      userEtag(before),
    );
    expect(response.statusCode).toBe(400);
    expect(JSON.stringify(response.json().error)).toContain("check digit");
    const short = await putProfessional(neurologistToken, "neuro", { ...professional, npi: "12345" }, userEtag(before));
    expect(short.statusCode).toBe(400);
    expect(JSON.stringify(short.json().error)).toContain("must be 10 digits");
    expect((await currentUser("neuro")).updatedAt).toBe(before.updatedAt);
  });

  it("needs If-Match: 428 without, 412 when stale", async () => {
    expect((await putProfessional(neurologistToken, "neuro", professional)).statusCode).toBe(428);
    const stale = await putProfessional(neurologistToken, "neuro", professional, '"2020-01-01T00:00:00.000Z"');
    expect(stale.statusCode).toBe(412);
  });
});
