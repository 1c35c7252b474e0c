import type { FastifyRequest } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type NotificationListener, startNotificationListener } from "../events/notification-listener.js";
import { connectSessionCache } from "../identity/session-cache.js";
import { sessionChangesChannel } from "../identity/session-changes.js";
import { TokenService } from "../identity/token-service.js";
import { identityClient } from "../testing/identity-helpers.js";
import { createTestApp, type TestApp, testClientId } from "../testing/test-app.js";
import { createAuthenticator } from "./authenticate.js";

/**
 * The per-request session check answered from the instance's memory (identity/session-cache.ts), on PGlite and on
 * PostgreSQL with DATABASE_URL: each write that can change its answer, made through the API as users and
 * administrators make it, is refused or granted at the very next call although the calls before it were answered
 * from memory.
 */
let harness: TestApp;
let adminToken: string;
const quiet = { warn: () => {}, info: () => {} };
const clientsPath = "/api/continuous-monitoring/clients";

beforeAll(async () => {
  harness = await createTestApp();
  adminToken = await harness.tokenFor("mem-admin", ["admin"]);
});
afterAll(() => harness.close());

const call = (idToken: string, url = "/api/chrome") =>
  harness.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${idToken}` } });

/** A few calls, so the sign-in is answered from memory before the write under test. */
async function warm(idToken: string, url?: string) {
  for (let index = 0; index < 3; index += 1) expect((await call(idToken, url)).statusCode).toBe(200);
}

async function asAdmin(method: "PUT" | "POST", url: string, body?: unknown) {
  const user = await harness.app.inject({
    method: "GET",
    url: url.replace(/\/(toggle|access-groups|reset-password)$/, ""),
    headers: { authorization: `Bearer ${adminToken}` },
  });
  const answer = await harness.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${adminToken}`, "if-match": `"${user.json().data.updatedAt}"` },
    ...(body === undefined ? {} : { payload: body as object }),
  });
  expect(answer.statusCode, answer.body).toBe(200);
}

describe("the session check answered from memory", () => {
  it("answers a sign-in's repeated calls from memory, and refuses it at the next call once revoked", async () => {
    const listener: NotificationListener = await startNotificationListener(
      harness.database,
      [sessionChangesChannel],
      quiet,
    );
    const cache = connectSessionCache(listener, quiet);
    try {
      const authenticate = createAuthenticator(
        harness.database.db,
        new TokenService(harness.database.db, harness.config),
        cache,
      );
      const password = await harness.addUser("mem-counted", ["coordinator"]);
      const tokens = await harness.signIn("mem-counted", password);
      const request = { headers: { authorization: `Bearer ${tokens.idToken}` } } as FastifyRequest;
      const principals = [];
      for (let index = 0; index < 4; index += 1) principals.push(await authenticate(request));
      expect(principals.map((principal) => principal?.username)).toEqual(Array(4).fill("mem-counted"));
      expect(cache.stats()).toMatchObject({ hits: 3, misses: 1 });
      // The calls answered from memory share one working-out of the groups' permissions, not one each.
      expect(new Set(principals.slice(1).map((principal) => principal?.permissions)).size).toBe(1);
      expect(principals[3]?.permissions.has("clients:write")).toBe(true);

      const revoke = await harness.cognito("RevokeToken", { ClientId: testClientId, Token: tokens.refreshToken });
      expect(revoke.statusCode).toBe(200);
      await expect(authenticate(request)).rejects.toMatchObject({ code: "unauthorized" });
    } finally {
      cache.close();
      await listener.close();
    }
  });

  it("refuses a sign-in ended by RevokeToken at the next call", async () => {
    const password = await harness.addUser("mem-revoke", ["coordinator"]);
    const tokens = await harness.signIn("mem-revoke", password);
    const other = await harness.signIn("mem-revoke", password);
    await warm(tokens.idToken);
    await warm(other.idToken);
    const revoke = await harness.cognito("RevokeToken", { ClientId: testClientId, Token: tokens.refreshToken });
    expect(revoke.statusCode).toBe(200);
    expect((await call(tokens.idToken)).statusCode).toBe(401);
    expect((await call(other.idToken)).statusCode, "the user's other sign-in stays live").toBe(200);
  });

  it("refuses every sign-in of the user at the next call after GlobalSignOut", async () => {
    const password = await harness.addUser("mem-global", ["coordinator"]);
    const first = await harness.signIn("mem-global", password);
    const second = await harness.signIn("mem-global", password);
    await warm(first.idToken);
    await warm(second.idToken);
    expect((await harness.cognito("GlobalSignOut", { AccessToken: first.accessToken })).statusCode).toBe(200);
    expect((await call(first.idToken)).statusCode).toBe(401);
    expect((await call(second.idToken)).statusCode).toBe(401);
  });

  it("shuts a user out at the next call when an administrator disables them, and lets a new sign-in in once enabled", async () => {
    const password = await harness.addUser("mem-disabled", ["coordinator"]);
    const { idToken } = await harness.signIn("mem-disabled", password);
    await warm(idToken);
    await asAdmin("PUT", "/api/users/mem-disabled/toggle", { isEnabled: false });
    const refused = await call(idToken);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.details).toEqual({ reason: "account-changed" });

    await asAdmin("PUT", "/api/users/mem-disabled/toggle", { isEnabled: true });
    const again = await harness.signIn("mem-disabled", password);
    await warm(again.idToken);
    expect((await call(idToken)).statusCode, "the sign-in the disabling ended stays ended").toBe(401);
  });

  it("applies a change of groups at the next call, taking a permission away and giving it back", async () => {
    const password = await harness.addUser("mem-groups", ["coordinator"]);
    const { idToken } = await harness.signIn("mem-groups", password);
    await warm(idToken, clientsPath);
    await asAdmin("PUT", "/api/users/mem-groups/access-groups", { groups: ["developer"] });
    expect((await call(idToken, clientsPath)).statusCode).toBe(403);
    await warm(idToken);
    await asAdmin("PUT", "/api/users/mem-groups/access-groups", { groups: ["coordinator"] });
    expect((await call(idToken, clientsPath)).statusCode).toBe(200);
  });

  it("refuses a sign-in at the next call once an administrator resets the user's password", async () => {
    const password = await harness.addUser("mem-reset", ["coordinator"]);
    const { idToken } = await harness.signIn("mem-reset", password);
    await warm(idToken);
    await asAdmin("POST", "/api/users/mem-reset/reset-password");
    expect((await call(idToken)).statusCode).toBe(401);
  });

  it("refuses the user's other sign-ins at the next call after ChangePassword, keeping the caller's own", async () => {
    const password = await harness.addUser("mem-change", ["coordinator"]);
    const other = await harness.signIn("mem-change", password);
    const current = await harness.signIn("mem-change", password);
    await warm(other.idToken);
    await warm(current.idToken);
    const changed = await harness.cognito("ChangePassword", {
      AccessToken: current.accessToken,
      PreviousPassword: password,
      ProposedPassword: "a-brand-new-password-for-memory",
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await call(other.idToken)).statusCode).toBe(401);
    expect((await call(current.idToken)).statusCode).toBe(200);
  });

  it("refuses every sign-in at the next call once a forgotten password is replaced with a code", async () => {
    const client = identityClient(harness);
    const password = await harness.addUser("mem-forgot", ["coordinator"]);
    const { idToken } = await harness.signIn("mem-forgot", password);
    await warm(idToken);
    expect(
      (await harness.cognito("ForgotPassword", { ClientId: testClientId, Username: "mem-forgot" })).statusCode,
    ).toBe(200);
    const confirmed = await harness.cognito("ConfirmForgotPassword", {
      ClientId: testClientId,
      Username: "mem-forgot",
      ConfirmationCode: await client.latestCode("mem-forgot@vigil.test"),
      Password: "a-brand-new-password-after-forgetting",
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect((await call(idToken)).statusCode).toBe(401);
  });
});
