import type { AccessGroup, User } from "@vigil/contract";
import { userEtag } from "@vigil/contract";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../identity/user-directory.js";
import { findUserByUsername, updateUser } from "../../identity/users-repository.js";
import { createTestApp, type TestApp, testClientId } from "../../testing/test-app.js";

let harness: TestApp;
let adminToken: string;

beforeAll(async () => {
  harness = await createTestApp();
  adminToken = await harness.tokenFor("root", ["admin"]);
});
afterAll(() => harness.close());

type Call = {
  method?: "GET" | "POST" | "PUT";
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
};

function api(url: string, { method = "GET", token = adminToken, body, headers = {} }: Call = {}) {
  return harness.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, "user-agent": "vitest-admin/1.0", ...headers },
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  });
}

const dataOf = <T>(response: LightMyRequestResponse): T => response.json().data as T;

async function currentUser(username: string, token = adminToken): Promise<User> {
  return dataOf<User>(await api(`/api/users/${username}`, { token }));
}

/** A PUT with the user's current ETag, as the web app sends it. */
async function putWithVersion(username: string, path: "toggle" | "access-groups", body: unknown) {
  const user = await currentUser(username);
  return api(`/api/users/${username}/${path}`, { method: "PUT", body, headers: { "if-match": userEtag(user) } });
}

function passwordAuth(username: string, password: string) {
  return harness.cognito("InitiateAuth", {
    AuthFlow: "USER_PASSWORD_AUTH",
    ClientId: testClientId,
    AuthParameters: { USERNAME: username, PASSWORD: password },
  });
}

async function latestOutboxMessage(to: string) {
  const [message] = await harness.app.messages.listOutbox({ recipient: to, limit: 1 });
  if (!message) throw new Error(`no message to ${to}`);
  return message;
}

function temporaryPasswordIn(body: string): string {
  const password = /Temporary password: (\S+)/.exec(body)?.[1];
  if (!password) throw new Error(`no temporary password in: ${body}`);
  return password;
}

const newUser = (username: string, groups: AccessGroup[] = ["technologist"]) => ({
  username,
  email: `${username}@example.org`,
  name: `${username[0]?.toUpperCase()}${username.slice(1)} Example`,
  groups,
});

describe("GET /api/users", () => {
  beforeAll(async () => {
    await harness.addUser("ada", ["technologist"]);
    await harness.addUser("bert", ["reviewer", "technologist"]);
    await harness.addUser("carla", ["billing"]);
    await harness.addUser("dora_percent", ["developer"]);
    const carla = await findUserByUsername(harness.database.db, "carla");
    await updateUser(harness.database.db, carla?.sub as string, { enabled: false, name: "zelda carla" });
  });

  const list = async (query: string) =>
    dataOf<{ items: User[]; total: number; limit: number; offset: number }>(await api(`/api/users?${query}`));
  const names = (page: { items: User[] }) => page.items.map((user) => user.username);

  it("pages the users on the server, by username, with the total", async () => {
    const first = await list("limit=2&offset=0");
    expect(first.total).toBe(5);
    expect(first).toMatchObject({ limit: 2, offset: 0 });
    expect(names(first)).toEqual(["ada", "bert"]);
    expect(names(await list("limit=2&offset=2"))).toEqual(["carla", "dora_percent"]);
    expect(names(await list("limit=2&offset=4"))).toEqual(["root"]);
  });

  it("searches username, name and email without regard to case, and treats % and _ literally", async () => {
    expect(names(await list("search=ZELDA"))).toEqual(["carla"]);
    expect(names(await list("search=bert%40vigil"))).toEqual(["bert"]);
    expect(names(await list("search=a_p"))).toEqual(["dora_percent"]);
    expect((await list("search=%25")).total).toBe(0);
  });

  it("filters by group and by enabled", async () => {
    expect(names(await list("group=technologist"))).toEqual(["ada", "bert"]);
    expect(names(await list("enabled=false"))).toEqual(["carla"]);
    expect(names(await list("enabled=true&group=billing"))).toEqual([]);
  });

  it("sorts by another field in either order", async () => {
    expect(names(await list("sort=name&order=desc&limit=2"))).toEqual(["carla", "root"]);
  });

  it("shows each user's MFA status", async () => {
    const ada = await findUserByUsername(harness.database.db, "ada");
    await updateUser(harness.database.db, ada?.sub as string, {
      totpEnabled: true,
      preferredMfa: "SOFTWARE_TOKEN_MFA",
    });
    const [listed] = (await list("search=ada")).items;
    expect(listed?.mfa).toEqual({ sms: false, totp: true, preferred: "SOFTWARE_TOKEN_MFA" });
  });

  it("answers 400 naming the field for a bad limit, group, enabled or sort", async () => {
    for (const [query, field] of [
      ["limit=201", "querystring.limit"],
      ["group=wizard", "querystring.group"],
      ["enabled=maybe", "querystring.enabled"],
      ["sort=password", "querystring.sort"],
    ]) {
      const response = await api(`/api/users?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error.details.issues.map((issue: { path: string }) => issue.path)).toContain(field);
    }
  });

  it("is for administrators only", async () => {
    const token = await harness.tokenFor("lister", ["coordinator"]);
    expect((await api("/api/users", { token })).statusCode).toBe(403);
  });
});

describe("GET /api/users/:username", () => {
  it("sends the user's ETag", async () => {
    const response = await api("/api/users/root");
    expect(response.headers.etag).toBe(userEtag(dataOf<User>(response)));
  });

  it("answers 404 for an unknown user", async () => {
    expect((await api("/api/users/nobody-here")).statusCode).toBe(404);
  });
});

describe("POST /api/users", () => {
  it("creates the user and emails the temporary password, which is never in the answer", async () => {
    const response = await api("/api/users", {
      method: "POST",
      body: { ...newUser("erin"), phoneNumber: "+15555550123" },
    });
    expect(response.statusCode).toBe(201);
    const created = dataOf<{ user: User; delivery: { destination: string; transport: string } }>(response);
    expect(created.user).toMatchObject({
      username: "erin",
      email: "erin@example.org",
      phoneNumber: "+15555550123",
      status: "FORCE_CHANGE_PASSWORD",
      isEnabled: true,
      groups: ["technologist"],
      mfa: { sms: false, totp: false, preferred: null },
    });
    expect(created.delivery).toEqual({ channel: "email", destination: "e***n@example.org", transport: "outbox" });
    expect(response.headers.location).toBe("/api/users/erin");

    const message = await latestOutboxMessage("erin@example.org");
    const temporaryPassword = temporaryPasswordIn(message.body);
    expect(message.body).toContain("Username: erin");
    expect(response.body).not.toContain(temporaryPassword);

    // The emailed password signs in, and Cognito asks for a new one.
    const signIn = await passwordAuth("erin", temporaryPassword);
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json().ChallengeName).toBe("NEW_PASSWORD_REQUIRED");
  });

  it("refuses a taken username (in any case) or email with 409 naming the field", async () => {
    await api("/api/users", { method: "POST", body: newUser("frank") });
    const sameName = await api("/api/users", {
      method: "POST",
      body: { ...newUser("FRANK"), email: "other@example.org" },
    });
    expect(sameName.statusCode).toBe(409);
    expect(sameName.json().error.details.issues).toEqual([
      { path: "body.username", message: "A user named FRANK already exists." },
    ]);
    const sameEmail = await api("/api/users", {
      method: "POST",
      body: { ...newUser("frankie"), email: "Frank@Example.org" },
    });
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json().error.details.issues[0].path).toBe("body.email");
  });

  it("answers 400 naming each bad field, and writes nothing", async () => {
    const response = await api("/api/users", {
      method: "POST",
      body: { username: "has space", email: "not-an-email", name: "", phoneNumber: "555-0100", groups: ["wizard"] },
    });
    expect(response.statusCode).toBe(400);
    const paths = response.json().error.details.issues.map((issue: { path: string }) => issue.path);
    expect(paths).toEqual(
      expect.arrayContaining(["body.username", "body.email", "body.name", "body.phoneNumber", "body.groups.0"]),
    );
    expect(await findUserByUsername(harness.database.db, "has space")).toBeUndefined();
  });

  it("words each refusal as the forms do, after the field's name, never in the schema library's words", async () => {
    const response = await api("/api/users", {
      method: "POST",
      body: { username: "has space", email: "not-an-email", name: "N".repeat(201), groups: ["wizard"] },
    });
    expect(response.statusCode).toBe(400);
    const error = response.json().error;
    expect(error.details.issues).toEqual(
      expect.arrayContaining([
        { path: "body.username", message: "may not contain spaces" },
        { path: "body.email", message: "must be an email address" },
        { path: "body.name", message: "must be at most 200 characters" },
        { path: "body.groups.0", message: "is not one of the allowed values" },
      ]),
    );
    expect(error.message).toContain("body.name must be at most 200 characters");
    const missing = await api("/api/users", { method: "POST", body: { username: "nameless", email: "n@example.org" } });
    expect(missing.json().error.details.issues).toEqual([{ path: "body.name", message: "is required" }]);
  });
});

describe("PUT /api/users/:username/toggle", () => {
  it("needs If-Match (428) and refuses a stale one with 412 and the current user", async () => {
    await harness.addUser("gina", ["reviewer"]);
    const before = await currentUser("gina");
    const missing = await api("/api/users/gina/toggle", { method: "PUT", body: { isEnabled: false } });
    expect(missing.statusCode).toBe(428);

    await putWithVersion("gina", "access-groups", { groups: ["reviewer", "billing"] });
    const stale = await api("/api/users/gina/toggle", {
      method: "PUT",
      body: { isEnabled: false },
      headers: { "if-match": userEtag(before) },
    });
    expect(stale.statusCode).toBe(412);
    expect(stale.json().error.details.current).toMatchObject({ username: "gina", groups: ["reviewer", "billing"] });
    expect(stale.headers.etag).toBe(userEtag(stale.json().error.details.current));
    expect((await currentUser("gina")).isEnabled).toBe(true);
  });

  it("disables a user: their open session stops working at once, and they cannot sign in", async () => {
    const password = await harness.addUser("hugo", ["technologist"]);
    const session = await harness.signIn("hugo", password);
    const menu = () =>
      harness.app.inject({
        method: "GET",
        url: "/api/chrome",
        headers: { authorization: `Bearer ${session.idToken}` },
      });
    expect((await menu()).statusCode).toBe(200);

    const response = await putWithVersion("hugo", "toggle", { isEnabled: false });
    expect(response.statusCode).toBe(200);
    expect(dataOf<User>(response).isEnabled).toBe(false);
    expect(response.headers.etag).toBe(userEtag(dataOf<User>(response)));

    expect((await menu()).statusCode).toBe(401);
    expect((await passwordAuth("hugo", password)).json().__type).toBe("NotAuthorizedException");

    // Enabled again, the user signs in anew; the tokens of the old session stay dead.
    expect((await putWithVersion("hugo", "toggle", { isEnabled: true })).statusCode).toBe(200);
    expect((await passwordAuth("hugo", password)).json().AuthenticationResult).toBeDefined();
    expect((await menu()).statusCode).toBe(401);
  });

  it("answers 404 for an unknown user and 400 for a body without isEnabled", async () => {
    const unknown = await api("/api/users/nobody-here/toggle", {
      method: "PUT",
      body: { isEnabled: false },
      headers: { "if-match": '"x"' },
    });
    expect(unknown.statusCode).toBe(404);
    const invalid = await api("/api/users/root/toggle", { method: "PUT", body: {}, headers: { "if-match": '"x"' } });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error.details.issues[0].path).toBe("body.isEnabled");
  });
});

describe("the last enabled administrator", () => {
  it("can be neither disabled nor stripped of the admin group, until another admin exists", async () => {
    const disable = await putWithVersion("root", "toggle", { isEnabled: false });
    expect(disable.statusCode).toBe(409);
    expect(disable.json().error.message).toMatch(/root is the last enabled administrator/);
    const demote = await putWithVersion("root", "access-groups", { groups: ["coordinator"] });
    expect(demote.statusCode).toBe(409);
    expect((await currentUser("root")).groups).toEqual(["admin"]);

    // A disabled admin does not count.
    const ivyPassword = await harness.addUser("ivy", ["admin"]);
    expect((await putWithVersion("ivy", "toggle", { isEnabled: false })).statusCode).toBe(200);
    expect((await putWithVersion("root", "toggle", { isEnabled: false })).statusCode).toBe(409);

    // With another enabled admin, root may lose the group; then ivy is the last one.
    expect((await putWithVersion("ivy", "toggle", { isEnabled: true })).statusCode).toBe(200);
    const ivyToken = (await harness.signIn("ivy", ivyPassword)).idToken;
    expect((await putWithVersion("root", "access-groups", { groups: ["admin", "coordinator"] })).statusCode).toBe(200);
    const demoted = await api("/api/users/root/access-groups", {
      method: "PUT",
      token: ivyToken,
      body: { groups: ["coordinator"] },
      headers: { "if-match": userEtag(await currentUser("root")) },
    });
    expect(demoted.statusCode).toBe(200);
    const lastOne = await api("/api/users/ivy/toggle", {
      method: "PUT",
      token: ivyToken,
      body: { isEnabled: false },
      headers: { "if-match": userEtag(await currentUser("ivy", ivyToken)) },
    });
    expect(lastOne.statusCode).toBe(409);
    // Put things back for the tests after this one.
    const restored = await api("/api/users/root/access-groups", {
      method: "PUT",
      token: ivyToken,
      body: { groups: ["admin"] },
      headers: { "if-match": userEtag(await currentUser("root", ivyToken)) },
    });
    expect(restored.statusCode).toBe(200);
  });
});

describe("two administrators demoting each other at the same moment", () => {
  it("leave exactly one of them an administrator", async () => {
    const xPassword = await harness.addUser("admin-x", ["admin"]);
    const yPassword = await harness.addUser("admin-y", ["admin"]);
    // Only x and y stay enabled admins: ivy and root lose the group for this test.
    for (const username of ["ivy", "root"]) {
      expect((await putWithVersion(username, "access-groups", { groups: [] })).statusCode, username).toBe(200);
    }
    const xToken = (await harness.signIn("admin-x", xPassword)).idToken;
    const yToken = (await harness.signIn("admin-y", yPassword)).idToken;
    const [x, y] = [await currentUser("admin-x", xToken), await currentUser("admin-y", yToken)];
    const demote = (token: string, target: User) =>
      api(`/api/users/${target.username}/access-groups`, {
        method: "PUT",
        token,
        body: { groups: [] },
        headers: { "if-match": userEtag(target) },
      });
    const answers = await Promise.all([demote(xToken, y), demote(yToken, x)]);
    // The loser either waited on the admins' locks and saw the other change (409), or arrived after it and no
    // longer had the admin group (403). Never both demoted.
    const [winner, loser] = [...answers].sort((left, right) => left.statusCode - right.statusCode);
    expect(winner?.statusCode).toBe(200);
    expect([403, 409]).toContain(loser?.statusCode);

    const survivorToken = answers[0]?.statusCode === 200 ? xToken : yToken;
    const survivor = await currentUser(answers[0]?.statusCode === 200 ? "admin-x" : "admin-y", survivorToken);
    expect(survivor.groups).toEqual(["admin"]);
    const restore = await api("/api/users/root/access-groups", {
      method: "PUT",
      token: survivorToken,
      body: { groups: ["admin"] },
      headers: { "if-match": userEtag(await currentUser("root", survivorToken)) },
    });
    expect(restore.statusCode).toBe(200);
  });
});

describe("POST /api/users/:username/reset-password", () => {
  it("makes a confirmed user reset at next sign-in and ends their sessions", async () => {
    const password = await harness.addUser("jules", ["reviewer"]);
    const session = await harness.signIn("jules", password);
    const response = await api("/api/users/jules/reset-password", { method: "POST" });
    expect(response.statusCode).toBe(200);
    expect(dataOf<{ user: User; delivery: unknown }>(response)).toMatchObject({
      user: { status: "RESET_REQUIRED" },
      delivery: null,
    });
    expect(
      (
        await harness.app.inject({
          method: "GET",
          url: "/api/chrome",
          headers: { authorization: `Bearer ${session.idToken}` },
        })
      ).statusCode,
    ).toBe(401);
    expect((await passwordAuth("jules", password)).json()).toEqual({
      __type: "PasswordResetRequiredException",
      message: "Password reset required for the user",
    });
  });

  it("sends a user who never signed in a new temporary password instead", async () => {
    await api("/api/users", { method: "POST", body: newUser("kim") });
    const first = temporaryPasswordIn((await latestOutboxMessage("kim@example.org")).body);
    const response = await api("/api/users/kim/reset-password", { method: "POST" });
    expect(response.statusCode).toBe(200);
    expect(dataOf<{ user: User; delivery: { destination: string } }>(response)).toMatchObject({
      user: { status: "FORCE_CHANGE_PASSWORD" },
      delivery: { channel: "email", destination: "k***m@example.org" },
    });
    const second = temporaryPasswordIn((await latestOutboxMessage("kim@example.org")).body);
    expect(second).not.toBe(first);
    expect(response.body).not.toContain(second);
    expect((await passwordAuth("kim", first)).json().__type).toBe("NotAuthorizedException");
    expect((await passwordAuth("kim", second)).json().ChallengeName).toBe("NEW_PASSWORD_REQUIRED");
  });

  it("answers 404 for an unknown user", async () => {
    expect((await api("/api/users/nobody-here/reset-password", { method: "POST" })).statusCode).toBe(404);
  });
});

describe("PUT /api/users/:username/sms-mfa", () => {
  it("turns SMS MFA on, so the next sign-in asks for a texted code, and off again", async () => {
    await createUser(
      harness.database.db,
      {
        username: "sami",
        email: "sami@vigil.test",
        name: "Sami Sms",
        groups: ["technologist"],
        phoneNumber: "+15555550142",
        password: "sami-long-password",
      },
      { username: "test" },
    );
    const turnOn = await api("/api/users/sami/sms-mfa", {
      method: "PUT",
      body: { enabled: true },
      headers: { "if-match": userEtag(await currentUser("sami")) },
    });
    expect(turnOn.statusCode).toBe(200);
    expect(dataOf<User>(turnOn).mfa.sms).toBe(true);
    const challenge = (await passwordAuth("sami", "sami-long-password")).json();
    expect(challenge.ChallengeName).toBe("SMS_MFA");
    expect(challenge.ChallengeParameters.CODE_DELIVERY_DESTINATION).toBe("+*******0142");

    const turnOff = await api("/api/users/sami/sms-mfa", {
      method: "PUT",
      body: { enabled: false },
      headers: { "if-match": userEtag(await currentUser("sami")) },
    });
    expect(dataOf<User>(turnOff).mfa.sms).toBe(false);
    expect((await passwordAuth("sami", "sami-long-password")).json().AuthenticationResult).toBeDefined();
  });

  it("refuses to turn it on without a phone number, and needs If-Match", async () => {
    await harness.addUser("nophone", ["reviewer"]);
    const withoutPhone = await api("/api/users/nophone/sms-mfa", {
      method: "PUT",
      body: { enabled: true },
      headers: { "if-match": userEtag(await currentUser("nophone")) },
    });
    expect(withoutPhone.statusCode).toBe(409);
    expect(withoutPhone.json().error.message).toBe("nophone has no phone number, so SMS codes cannot be sent.");
    expect((await currentUser("nophone")).mfa.sms).toBe(false);
    const withoutVersion = await api("/api/users/nophone/sms-mfa", { method: "PUT", body: { enabled: false } });
    expect(withoutVersion.statusCode).toBe(428);
  });
});

describe("POST /api/users/:username/reset-mfa", () => {
  it("removes SMS and authenticator MFA and the preference", async () => {
    await harness.addUser("lena", ["billing"]);
    const row = await findUserByUsername(harness.database.db, "lena");
    await updateUser(harness.database.db, row?.sub as string, {
      phoneNumber: "+15555550199",
      smsMfaEnabled: true,
      totpEnabled: true,
      totpSecret: "JBSWY3DPEHPK3PXP",
      preferredMfa: "SMS_MFA",
    });
    expect((await currentUser("lena")).mfa).toEqual({ sms: true, totp: true, preferred: "SMS_MFA" });
    const response = await api("/api/users/lena/reset-mfa", { method: "POST" });
    expect(response.statusCode).toBe(200);
    expect(dataOf<User>(response).mfa).toEqual({ sms: false, totp: false, preferred: null });
    const after = await findUserByUsername(harness.database.db, "lena");
    expect(after?.totpSecret).toBeNull();
  });
});

describe("GET /api/users/continuous-monitoring/technologists", () => {
  it("lists enabled technologists by name for anyone who reads cases", async () => {
    await harness.addUser("tech-off", ["technologist"]);
    const off = await findUserByUsername(harness.database.db, "tech-off");
    await updateUser(harness.database.db, off?.sub as string, { enabled: false });
    const token = await harness.tokenFor("picker", ["coordinator"]);
    const response = await api("/api/users/continuous-monitoring/technologists", { token });
    expect(response.statusCode).toBe(200);
    const page = dataOf<{ items: { id: string; username: string; name: string }[]; total: number }>(response);
    const usernames = page.items.map((item) => item.username);
    expect(usernames).toContain("ada");
    expect(usernames).not.toContain("tech-off");
    expect(usernames).not.toContain("carla");
    expect(Object.keys(page.items[0] ?? {}).sort()).toEqual(["id", "name", "username"]);

    const developer = await harness.tokenFor("dev-picker", ["developer"]);
    expect((await api("/api/users/continuous-monitoring/technologists", { token: developer })).statusCode).toBe(403);
  });
});

describe("GET /api/outbox", () => {
  it("shows administrators the messages kept because no mail transport is configured", async () => {
    const response = await api("/api/outbox?to=erin%40example.org");
    expect(response.statusCode).toBe(200);
    const [message] = dataOf<{ items: { to: string; subject: string; body: string }[] }>(response).items;
    expect(message).toMatchObject({ to: "erin@example.org", subject: "Your Vigil account", channel: "email" });
    expect(message?.body).toMatch(/Temporary password: \S+/);
  });
});

describe("with a mail transport configured", () => {
  let smtpHarness: TestApp;
  beforeAll(async () => {
    // Nothing listens on port 1: every send fails, as when the mail server is down.
    smtpHarness = await createTestApp({ SMTP_URL: "smtp://127.0.0.1:1" });
  });
  afterAll(() => smtpHarness.close());

  it("keeps no readable outbox (404) and says when the temporary password could not be sent", async () => {
    const token = await smtpHarness.tokenFor("mailroot", ["admin"]);
    const headers = { authorization: `Bearer ${token}` };
    expect((await smtpHarness.app.inject({ method: "GET", url: "/api/outbox", headers })).statusCode).toBe(404);
    const created = await smtpHarness.app.inject({
      method: "POST",
      url: "/api/users",
      headers,
      payload: newUser("mo"),
    });
    expect(created.statusCode).toBe(503);
    expect(created.json().error.message).toMatch(/could not be sent\. Use "Reset password"/);
    // The user exists; the failure is in the audit log.
    expect(await findUserByUsername(smtpHarness.database.db, "mo")).toBeDefined();
    const audit = await smtpHarness.app.inject({
      method: "GET",
      url: "/api/audit?action=user.temporary-password.send",
      headers,
    });
    expect(audit.json().data.items[0]).toMatchObject({ outcome: "failure", target: { type: "user", id: "mo" } });
  });
});
