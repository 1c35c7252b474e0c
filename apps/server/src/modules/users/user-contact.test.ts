import type { User } from "@vigil/contract";
import { userEtag } from "@vigil/contract";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents } from "../../db/schema.js";
import { createUser } from "../../identity/user-directory.js";
import { identityClient } from "../../testing/identity-helpers.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

let harness: TestApp;
let adminToken: string;

beforeAll(async () => {
  harness = await createTestApp();
  adminToken = await harness.tokenFor("root", ["admin"]);
});
afterAll(() => harness.close());

async function currentUser(username: string): Promise<User> {
  const response = await harness.app.inject({
    url: `/api/users/${username}`,
    headers: { authorization: `Bearer ${adminToken}` },
  });
  return response.json().data as User;
}

function putContact(username: string, body: unknown, ifMatch?: string) {
  return harness.app.inject({
    method: "PUT",
    url: `/api/users/${username}/contact`,
    headers: { authorization: `Bearer ${adminToken}`, ...(ifMatch ? { "if-match": ifMatch } : {}) },
    payload: body as Record<string, unknown>,
  });
}

async function addUserWithPhone(username: string, password: string) {
  await createUser(
    harness.database.db,
    {
      username,
      email: `${username}@vigil.test`,
      name: username,
      groups: ["reviewer"],
      phoneNumber: "+15555550160",
      password,
    },
    { username: "test" },
  );
}

describe("PUT /api/users/:username/contact", () => {
  it("stores a new email and phone number unverified, audited with masked addresses", async () => {
    await addUserWithPhone("carla", "carla-long-password");
    const before = await currentUser("carla");
    expect(before).toMatchObject({ emailVerified: true, phoneNumberVerified: true });

    const response = await putContact(
      "carla",
      { email: "carla.new@clinic.example", phoneNumber: "+15555550161" },
      userEtag(before),
    );
    expect(response.statusCode).toBe(200);
    const after = response.json().data as User;
    expect(after).toMatchObject({
      email: "carla.new@clinic.example",
      emailVerified: false,
      phoneNumber: "+15555550161",
      phoneNumberVerified: false,
    });
    expect(response.headers.etag).toBe(userEtag(after));
    const [event] = await harness.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "user.set-contact"), eq(auditEvents.targetId, "carla")));
    expect(event?.outcome).toBe("success");
    expect(event?.details).toEqual({
      changed: ["email", "phoneNumber"],
      email: { from: "c***a@vigil.test", to: "c***w@clinic.example" },
      phoneNumber: { from: "+*******0160", to: "+*******0161" },
    });
  });

  it("tells the old (verified) address and the new one when an administrator changes the email, naming only the account", async () => {
    await addUserWithPhone("nadia", "nadia-long-password");
    const response = await putContact(
      "nadia",
      { email: "nadia@clinic.example", phoneNumber: "+15555550160" },
      userEtag(await currentUser("nadia")),
    );
    expect(response.statusCode, response.body).toBe(200);
    const [toOld] = await harness.app.messages.listOutbox({ recipient: "nadia@vigil.test", limit: 5 });
    expect(toOld?.subject).toBe("The email address of your Vigil account was changed");
    expect(toOld?.body).toContain("An administrator changed the email address of the Vigil account nadia");
    // The old address does not learn the new one.
    expect(toOld?.body).not.toContain("clinic.example");
    const [toNew] = await harness.app.messages.listOutbox({ recipient: "nadia@clinic.example", limit: 5 });
    expect(toNew?.body).toContain("An administrator set this address as the email of the Vigil account nadia");
    expect(toNew?.body).toContain("Verify email");

    // A phone number change alone sends no email notice.
    const before = (await harness.app.messages.listOutbox({ recipient: "nadia@clinic.example", limit: 50 })).length;
    await putContact(
      "nadia",
      { email: "nadia@clinic.example", phoneNumber: "+15555550170" },
      userEtag(await currentUser("nadia")),
    );
    expect((await harness.app.messages.listOutbox({ recipient: "nadia@clinic.example", limit: 50 })).length).toBe(
      before,
    );
  });

  it("leaves an unchanged value verified", async () => {
    await addUserWithPhone("dario", "dario-long-password");
    const response = await putContact(
      "dario",
      { email: "dario@vigil.test", phoneNumber: "+15555550162" },
      userEtag(await currentUser("dario")),
    );
    expect(response.json().data).toMatchObject({ emailVerified: true, phoneNumberVerified: false });
  });

  it("lets the user verify the new address with a code sent there, and not with one sent to the old one", async () => {
    const client = identityClient(harness);
    await addUserWithPhone("elio", "elio-long-password");
    const { accessToken } = await harness.signIn("elio", "elio-long-password");
    const ask = () =>
      harness.cognito("GetUserAttributeVerificationCode", { AccessToken: accessToken, AttributeName: "email" });
    await client.setUser("elio", { emailVerified: false });
    await ask();
    const oldCode = await client.latestCode("elio@vigil.test");

    await putContact(
      "elio",
      { email: "elio@clinic.example", phoneNumber: "+15555550160" },
      userEtag(await currentUser("elio")),
    );
    const verify = (code: string) =>
      harness.cognito("VerifyUserAttribute", { AccessToken: accessToken, AttributeName: "email", Code: code });
    expect((await verify(oldCode)).json().__type).toBe("CodeMismatchException");
    expect((await client.user("elio")).emailVerified).toBe(false);

    expect((await ask()).json().CodeDeliveryDetails.Destination).toBe("e***o@clinic.example");
    expect((await verify(await client.latestCode("elio@clinic.example"))).statusCode).toBe(200);
    expect((await currentUser("elio")).emailVerified).toBe(true);
  });

  it("removes the phone number and with it SMS MFA", async () => {
    const client = identityClient(harness);
    await addUserWithPhone("fina", "fina-long-password");
    await client.setUser("fina", { smsMfaEnabled: true, preferredMfa: "SMS_MFA" });
    const response = await putContact(
      "fina",
      { email: "fina@vigil.test", phoneNumber: null },
      userEtag(await currentUser("fina")),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({
      phoneNumber: null,
      phoneNumberVerified: false,
      mfa: { sms: false, preferred: null },
    });
  });

  it("refuses an email another user has (409 on body.email) and changes nothing", async () => {
    await addUserWithPhone("gino", "gino-long-password");
    await addUserWithPhone("hana", "hana-long-password");
    const before = await currentUser("gino");
    const response = await putContact("gino", { email: "HANA@vigil.test", phoneNumber: null }, userEtag(before));
    expect(response.statusCode).toBe(409);
    expect(response.json().error.details.issues).toEqual([
      { path: "body.email", message: "Another user already has this email address." },
    ]);
    expect(await currentUser("gino")).toEqual(before);
    const [event] = await harness.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "user.set-contact"), eq(auditEvents.targetId, "gino")));
    expect(event?.outcome).toBe("failure");
  });

  it("needs If-Match (428), refuses a stale one (412) and names bad fields (400)", async () => {
    await addUserWithPhone("ivo", "ivo-long-password");
    const body = { email: "ivo@vigil.test", phoneNumber: "+15555550163" };
    expect((await putContact("ivo", body)).statusCode).toBe(428);
    expect((await putContact("ivo", body, '"2001-01-01T00:00:00.000Z"')).statusCode).toBe(412);
    const bad = await putContact(
      "ivo",
      { email: "not-an-email", phoneNumber: "555-0100" },
      userEtag(await currentUser("ivo")),
    );
    expect(bad.statusCode).toBe(400);
    const paths = bad.json().error.details.issues.map((issue: { path: string }) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(["body.email", "body.phoneNumber"]));
    expect((await currentUser("ivo")).phoneNumber).toBe("+15555550160");
  });
});
