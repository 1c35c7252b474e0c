import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, authChallenges } from "../db/schema.js";
import { decodeClaims } from "../testing/forge-token.js";
import { awayFromStepEdge, identityClient, totpCode } from "../testing/identity-helpers.js";
import { createTestApp, type TestApp } from "../testing/test-app.js";
import { createTotpSecret } from "./totp.js";
import { createUser } from "./user-directory.js";

/** The six challenge sequences of AUTH.md, end to end through POST /cognito. */
let optional: TestApp;
let required: TestApp;
let off: TestApp;

beforeAll(async () => {
  [optional, required, off] = await Promise.all([
    createTestApp(),
    createTestApp({ MFA_MODE: "ON" }),
    createTestApp({ MFA_MODE: "OFF" }),
  ]);
});
afterAll(() => Promise.all([optional.close(), required.close(), off.close()]));

const newPassword = "a-long-enough-new-password";

async function adminCreated(harness: TestApp, username: string, phoneNumber?: string) {
  const created = await createUser(
    harness.database.db,
    { username, email: `${username}@vigil.test`, name: `${username} Tester`, groups: ["reviewer"], phoneNumber },
    { username: "test" },
  );
  return created.temporaryPassword as string;
}

describe("sequence 1: password → NEW_PASSWORD_REQUIRED → tokens", () => {
  it("signs an administrator-created user in once they chose a password", async () => {
    const client = identityClient(optional);
    const temporary = await adminCreated(optional, "seq1");
    const first = (await client.passwordAuth("seq1", temporary)).json();
    expect(first.ChallengeName).toBe("NEW_PASSWORD_REQUIRED");
    const done = await client.respond("NEW_PASSWORD_REQUIRED", first.Session, {
      USERNAME: "seq1",
      NEW_PASSWORD: newPassword,
    });
    expect(done.statusCode).toBe(200);
    expect(decodeClaims(done.json().AuthenticationResult.IdToken)["cognito:username"]).toBe("seq1");
  });
});

describe("sequence 2: password → NEW_PASSWORD_REQUIRED → SMS_MFA → tokens", () => {
  it("sends a masked SMS code after the new password and signs in with it", async () => {
    const client = identityClient(optional);
    const temporary = await adminCreated(optional, "seq2", "+15555550123");
    await client.setUser("seq2", { smsMfaEnabled: true });

    const first = (await client.passwordAuth("seq2", temporary)).json();
    expect(first.ChallengeName).toBe("NEW_PASSWORD_REQUIRED");
    const sms = await client.respond("NEW_PASSWORD_REQUIRED", first.Session, {
      USERNAME: "seq2",
      NEW_PASSWORD: newPassword,
    });
    expect(sms.statusCode).toBe(200);
    const challenge = sms.json();
    expect(challenge).toMatchObject({
      ChallengeName: "SMS_MFA",
      ChallengeParameters: {
        CODE_DELIVERY_DELIVERY_MEDIUM: "SMS",
        CODE_DELIVERY_DESTINATION: "+*******0123",
        USER_ID_FOR_SRP: "seq2",
      },
    });
    expect(challenge.AuthenticationResult).toBeUndefined();
    expect(challenge.Session).not.toBe(first.Session);

    const [message] = await optional.app.messages.listOutbox({ recipient: "+15555550123", limit: 1 });
    expect(message?.channel).toBe("sms");
    expect(message?.body).toMatch(/Vigil/);
    expect(message?.body).toMatch(/minute/);
    const code = await client.latestCode("+15555550123");

    // A wrong code does not burn the session.
    const wrong = await client.respond("SMS_MFA", challenge.Session, {
      USERNAME: "seq2",
      SMS_MFA_CODE: code === "000000" ? "111111" : "000000",
    });
    expect(wrong.json()).toEqual({
      __type: "CodeMismatchException",
      message: "Invalid code or auth state for the user.",
    });
    const done = await client.respond("SMS_MFA", challenge.Session, { USERNAME: "seq2", SMS_MFA_CODE: code });
    expect(done.statusCode).toBe(200);
    expect(decodeClaims(done.json().AuthenticationResult.IdToken)["cognito:username"]).toBe("seq2");
    // Each session and each code works once.
    const again = await client.respond("SMS_MFA", challenge.Session, { USERNAME: "seq2", SMS_MFA_CODE: code });
    expect(again.json().message).toBe("Invalid session for the user, session is expired.");
  });

  it("refuses an SMS code sent for an earlier sign-in once a new one was issued", async () => {
    const client = identityClient(optional);
    const password = await optional.addUser("seq2b", ["reviewer"]);
    await client.setUser("seq2b", { phoneNumber: "+15555550188", phoneNumberVerified: true, smsMfaEnabled: true });
    const firstSession = (await client.passwordAuth("seq2b", password)).json().Session;
    const firstCode = await client.latestCode("+15555550188");
    const secondSession = (await client.passwordAuth("seq2b", password)).json().Session;
    const secondCode = await client.latestCode("+15555550188");
    if (firstCode !== secondCode) {
      const stale = await client.respond("SMS_MFA", secondSession, { USERNAME: "seq2b", SMS_MFA_CODE: firstCode });
      expect(stale.json().__type).toBe("CodeMismatchException");
    }
    // The first session's code was replaced by the second one's.
    const replaced = await client.respond("SMS_MFA", firstSession, { USERNAME: "seq2b", SMS_MFA_CODE: firstCode });
    expect(replaced.json().__type).toBe("CodeMismatchException");
    const done = await client.respond("SMS_MFA", secondSession, { USERNAME: "seq2b", SMS_MFA_CODE: secondCode });
    expect(done.statusCode).toBe(200);
  });

  it("refuses an SMS_MFA session after 3 minutes", async () => {
    const client = identityClient(optional);
    const password = await optional.addUser("seq2c", ["reviewer"]);
    await client.setUser("seq2c", { phoneNumber: "+15555550177", phoneNumberVerified: true, smsMfaEnabled: true });
    const session = (await client.passwordAuth("seq2c", password)).json().Session;
    const code = await client.latestCode("+15555550177");
    await optional.database.db
      .update(authChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(authChallenges.challengeName, "SMS_MFA"));
    expect((await client.respond("SMS_MFA", session, { USERNAME: "seq2c", SMS_MFA_CODE: code })).json()).toEqual({
      __type: "NotAuthorizedException",
      message: "Invalid session for the user, session is expired.",
    });
  });
});

describe("sequence 3: password → NEW_PASSWORD_REQUIRED → MFA_SETUP → AssociateSoftwareToken → VerifySoftwareToken → tokens", () => {
  it("sets up an authenticator app during the first sign-in when MFA is required", async () => {
    const client = identityClient(required);
    const temporary = await adminCreated(required, "seq3");
    const first = (await client.passwordAuth("seq3", temporary)).json();
    expect(first.ChallengeName).toBe("NEW_PASSWORD_REQUIRED");
    const setup = (
      await client.respond("NEW_PASSWORD_REQUIRED", first.Session, { USERNAME: "seq3", NEW_PASSWORD: newPassword })
    ).json();
    expect(setup).toMatchObject({
      ChallengeName: "MFA_SETUP",
      ChallengeParameters: { MFAS_CAN_SETUP: '["SOFTWARE_TOKEN_MFA"]' },
    });

    // Finishing before an authenticator is verified is refused.
    const early = await client.respond("MFA_SETUP", setup.Session, { USERNAME: "seq3" });
    expect(early.json().__type).toBe("InvalidParameterException");

    const associated = await required.cognito("AssociateSoftwareToken", { Session: setup.Session });
    expect(associated.statusCode).toBe(200);
    const { SecretCode: secret, Session: verifySession } = associated.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(verifySession).not.toBe(setup.Session);

    await awayFromStepEdge();
    const wrong = await required.cognito("VerifySoftwareToken", {
      Session: verifySession,
      UserCode: totpCode(secret, 5),
      FriendlyDeviceName: "phone",
    });
    expect(wrong.json()).toEqual({
      __type: "EnableSoftwareTokenMFAException",
      message: "Code mismatch and fail enable Software Token MFA",
    });
    const setupCode = totpCode(secret);
    const verified = await required.cognito("VerifySoftwareToken", {
      Session: verifySession,
      UserCode: setupCode,
      FriendlyDeviceName: "phone",
    });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({ Status: "SUCCESS" });
    const done = await client.respond("MFA_SETUP", verified.json().Session, { USERNAME: "seq3" });
    expect(done.statusCode).toBe(200);
    const { AccessToken: accessToken } = done.json().AuthenticationResult;

    const me = (await required.cognito("GetUser", { AccessToken: accessToken })).json();
    expect(me).toMatchObject({ PreferredMfaSetting: "SOFTWARE_TOKEN_MFA", UserMFASettingList: ["SOFTWARE_TOKEN_MFA"] });

    // From now on the password leads to SOFTWARE_TOKEN_MFA; the code used for the setup is spent.
    const next = (await client.passwordAuth("seq3", newPassword)).json();
    expect(next.ChallengeName).toBe("SOFTWARE_TOKEN_MFA");
    const reused = await client.respond("SOFTWARE_TOKEN_MFA", next.Session, {
      USERNAME: "seq3",
      SOFTWARE_TOKEN_MFA_CODE: setupCode,
    });
    expect(reused.json().__type).toBe("CodeMismatchException");
    const signedIn = await client.respond("SOFTWARE_TOKEN_MFA", next.Session, {
      USERNAME: "seq3",
      SOFTWARE_TOKEN_MFA_CODE: totpCode(secret, 1),
    });
    expect(signedIn.statusCode).toBe(200);
  });

  it("asks a confirmed user without MFA to set it up, offering TOTP only", async () => {
    const client = identityClient(required);
    const password = await required.addUser("seq3b", ["reviewer"]);
    // Even with a phone number, SMS is not offered for setup: an administrator turns SMS MFA on.
    await client.setUser("seq3b", { phoneNumber: "+15555550166", phoneNumberVerified: true });
    const answer = (await client.passwordAuth("seq3b", password)).json();
    expect(answer).toMatchObject({
      ChallengeName: "MFA_SETUP",
      ChallengeParameters: { MFAS_CAN_SETUP: '["SOFTWARE_TOKEN_MFA"]' },
    });
    expect(answer.AuthenticationResult).toBeUndefined();
  });

  it("does not accept an MFA_SETUP session as another challenge, nor a stranger's session", async () => {
    const client = identityClient(required);
    const password = await required.addUser("seq3c", ["reviewer"]);
    const session = (await client.passwordAuth("seq3c", password)).json().Session;
    const asTotp = await client.respond("SOFTWARE_TOKEN_MFA", session, {
      USERNAME: "seq3c",
      SOFTWARE_TOKEN_MFA_CODE: "123456",
    });
    expect(asTotp.json().message).toBe("Invalid session for the user, session is expired.");
    const otherUser = await client.respond("MFA_SETUP", session, { USERNAME: "seq3b" });
    expect(otherUser.json().message).toBe("Invalid session for the user, session is expired.");
    const made = await required.cognito("AssociateSoftwareToken", { Session: "made-up-session" });
    expect(made.json().message).toBe("Invalid session for the user, session is expired.");
  });
});

describe("sequence 4: password → SOFTWARE_TOKEN_MFA → tokens", () => {
  it("adds an authenticator app while signed in, then asks for its codes, each usable once", async () => {
    const client = identityClient(optional);
    const password = await optional.addUser("seq4", ["reviewer"]);
    const { accessToken } = await optional.signIn("seq4", password);

    const associated = await optional.cognito("AssociateSoftwareToken", { AccessToken: accessToken });
    expect(associated.statusCode).toBe(200);
    expect(associated.json().Session).toBeUndefined();
    const secret = associated.json().SecretCode as string;

    // Verified but not yet turned on: the sign-in still needs no code.
    await awayFromStepEdge();
    const verifyCode = totpCode(secret);
    const verified = await optional.cognito("VerifySoftwareToken", { AccessToken: accessToken, UserCode: verifyCode });
    expect(verified.json()).toEqual({ Status: "SUCCESS" });
    expect((await client.passwordAuth("seq4", password)).json().AuthenticationResult).toBeDefined();
    const before = (await optional.cognito("GetUser", { AccessToken: accessToken })).json();
    expect(before.UserMFASettingList).toBeUndefined();
    expect(before.PreferredMfaSetting).toBeUndefined();

    const preference = await optional.cognito("SetUserMFAPreference", {
      AccessToken: accessToken,
      SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
    });
    expect(preference.statusCode).toBe(200);
    expect(preference.json()).toEqual({});
    expect((await optional.cognito("GetUser", { AccessToken: accessToken })).json()).toMatchObject({
      PreferredMfaSetting: "SOFTWARE_TOKEN_MFA",
      UserMFASettingList: ["SOFTWARE_TOKEN_MFA"],
    });

    const challenge = (await client.passwordAuth("seq4", password)).json();
    expect(challenge).toMatchObject({
      ChallengeName: "SOFTWARE_TOKEN_MFA",
      ChallengeParameters: { USER_ID_FOR_SRP: "seq4" },
    });
    // The code that verified the app is spent.
    const spent = await client.respond("SOFTWARE_TOKEN_MFA", challenge.Session, {
      USERNAME: "seq4",
      SOFTWARE_TOKEN_MFA_CODE: verifyCode,
    });
    expect(spent.json().__type).toBe("CodeMismatchException");
    const nextCode = totpCode(secret, 1);
    const done = await client.respond("SOFTWARE_TOKEN_MFA", challenge.Session, {
      USERNAME: "seq4",
      SOFTWARE_TOKEN_MFA_CODE: nextCode,
    });
    expect(done.statusCode).toBe(200);
    expect(decodeClaims(done.json().AuthenticationResult.IdToken)["cognito:username"]).toBe("seq4");

    // The same code in a new sign-in is refused: a TOTP code works once.
    const again = (await client.passwordAuth("seq4", password)).json();
    const replay = await client.respond("SOFTWARE_TOKEN_MFA", again.Session, {
      USERNAME: "seq4",
      SOFTWARE_TOKEN_MFA_CODE: nextCode,
    });
    expect(replay.json().__type).toBe("CodeMismatchException");
    const reasons = (
      await optional.database.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.action, "auth.mfa"), eq(auditEvents.actorUsername, "seq4")))
    ).map((event) => (event.details as { reason: string }).reason);
    expect(reasons).toEqual(expect.arrayContaining(["TOTP code already used"]));
  });

  it("refuses a verification code for an app that was never associated, and a wrong one", async () => {
    const password = await optional.addUser("seq4b", ["reviewer"]);
    const { accessToken } = await optional.signIn("seq4b", password);
    const unassociated = await optional.cognito("VerifySoftwareToken", {
      AccessToken: accessToken,
      UserCode: "123456",
    });
    expect(unassociated.json().__type).toBe("SoftwareTokenMFANotFoundException");
    const secret = (await optional.cognito("AssociateSoftwareToken", { AccessToken: accessToken })).json().SecretCode;
    await awayFromStepEdge();
    const wrong = await optional.cognito("VerifySoftwareToken", {
      AccessToken: accessToken,
      UserCode: totpCode(secret, -4),
    });
    expect(wrong.json().__type).toBe("EnableSoftwareTokenMFAException");
    const both = await optional.cognito("AssociateSoftwareToken", { AccessToken: accessToken, Session: "x" });
    expect(both.json().__type).toBe("InvalidParameterException");
  });

  it("accepts the neighbouring 30-second steps but not older ones", async () => {
    const client = identityClient(optional);
    const password = await optional.addUser("seq4c", ["reviewer"]);
    const secret = createTotpSecret();
    await client.setUser("seq4c", { totpSecret: secret, totpEnabled: true });
    await awayFromStepEdge();
    const first = (await client.passwordAuth("seq4c", password)).json();
    const tooOld = await client.respond("SOFTWARE_TOKEN_MFA", first.Session, {
      USERNAME: "seq4c",
      SOFTWARE_TOKEN_MFA_CODE: totpCode(secret, -2),
    });
    expect(tooOld.json().__type).toBe("CodeMismatchException");
    const previous = await client.respond("SOFTWARE_TOKEN_MFA", first.Session, {
      USERNAME: "seq4c",
      SOFTWARE_TOKEN_MFA_CODE: totpCode(secret, -1),
    });
    expect(previous.statusCode).toBe(200);
    const second = (await client.passwordAuth("seq4c", password)).json();
    const following = await client.respond("SOFTWARE_TOKEN_MFA", second.Session, {
      USERNAME: "seq4c",
      SOFTWARE_TOKEN_MFA_CODE: totpCode(secret, 1),
    });
    expect(following.statusCode).toBe(200);
  });
});

describe("sequence 5: password → SELECT_MFA_TYPE → chosen challenge → tokens", () => {
  it("lets a user with SMS and TOTP on and no preference choose, then asks the chosen one", async () => {
    const client = identityClient(optional);
    const password = await optional.addUser("seq5", ["reviewer"]);
    const secret = createTotpSecret();
    await client.setUser("seq5", {
      phoneNumber: "+15555550155",
      phoneNumberVerified: true,
      smsMfaEnabled: true,
      totpSecret: secret,
      totpEnabled: true,
      preferredMfa: null,
    });

    const select = (await client.passwordAuth("seq5", password)).json();
    expect(select).toMatchObject({
      ChallengeName: "SELECT_MFA_TYPE",
      ChallengeParameters: { MFAS_CAN_CHOOSE: '["SMS_MFA","SOFTWARE_TOKEN_MFA"]' },
    });
    const invalid = await client.respond("SELECT_MFA_TYPE", select.Session, { USERNAME: "seq5", ANSWER: "EMAIL_OTP" });
    expect(invalid.json().__type).toBe("InvalidParameterException");

    const sms = (
      await client.respond("SELECT_MFA_TYPE", select.Session, { USERNAME: "seq5", ANSWER: "SMS_MFA" })
    ).json();
    expect(sms).toMatchObject({
      ChallengeName: "SMS_MFA",
      ChallengeParameters: { CODE_DELIVERY_DESTINATION: "+*******0155" },
    });
    const viaSms = await client.respond("SMS_MFA", sms.Session, {
      USERNAME: "seq5",
      SMS_MFA_CODE: await client.latestCode("+15555550155"),
    });
    expect(viaSms.statusCode).toBe(200);

    await awayFromStepEdge();
    const again = (await client.passwordAuth("seq5", password)).json();
    const totp = (
      await client.respond("SELECT_MFA_TYPE", again.Session, { USERNAME: "seq5", ANSWER: "SOFTWARE_TOKEN_MFA" })
    ).json();
    expect(totp.ChallengeName).toBe("SOFTWARE_TOKEN_MFA");
    const viaTotp = await client.respond("SOFTWARE_TOKEN_MFA", totp.Session, {
      USERNAME: "seq5",
      SOFTWARE_TOKEN_MFA_CODE: totpCode(secret),
    });
    expect(viaTotp.statusCode).toBe(200);
  });

  it("goes straight to the preferred method when there is one", async () => {
    const client = identityClient(optional);
    const password = await optional.addUser("seq5b", ["reviewer"]);
    await client.setUser("seq5b", {
      phoneNumber: "+15555550144",
      phoneNumberVerified: true,
      smsMfaEnabled: true,
      totpSecret: createTotpSecret(),
      totpEnabled: true,
      preferredMfa: "SMS_MFA",
    });
    expect((await client.passwordAuth("seq5b", password)).json().ChallengeName).toBe("SMS_MFA");
  });
});

describe("MFA settings", () => {
  it("refuses SMS MFA without a phone number and TOTP MFA without a verified app", async () => {
    const password = await optional.addUser("settings", ["reviewer"]);
    const { accessToken } = await optional.signIn("settings", password);
    const sms = await optional.cognito("SetUserMFAPreference", {
      AccessToken: accessToken,
      SMSMfaSettings: { Enabled: true, PreferredMfa: true },
    });
    expect(sms.json()).toEqual({
      __type: "InvalidParameterException",
      message: "User does not have delivery config set to turn on SMS_MFA",
    });
    const totp = await optional.cognito("SetUserMFAPreference", {
      AccessToken: accessToken,
      SoftwareTokenMfaSettings: { Enabled: true },
    });
    expect(totp.json()).toEqual({
      __type: "InvalidParameterException",
      message: "User has not verified software token mfa",
    });
  });

  it("turns SMS MFA on for a user whose phone number an administrator set, and off again", async () => {
    const client = identityClient(optional);
    const password = await optional.addUser("smsuser", ["reviewer"]);
    await client.setUser("smsuser", { phoneNumber: "+15555550133", phoneNumberVerified: true });
    const { accessToken } = await optional.signIn("smsuser", password);
    const on = await optional.cognito("SetUserMFAPreference", {
      AccessToken: accessToken,
      SMSMfaSettings: { Enabled: true, PreferredMfa: true },
    });
    expect(on.statusCode).toBe(200);
    expect((await optional.cognito("GetUser", { AccessToken: accessToken })).json()).toMatchObject({
      PreferredMfaSetting: "SMS_MFA",
      UserMFASettingList: ["SMS_MFA"],
    });
    expect((await client.passwordAuth("smsuser", password)).json().ChallengeName).toBe("SMS_MFA");
    await optional.cognito("SetUserMFAPreference", {
      AccessToken: accessToken,
      SMSMfaSettings: { Enabled: false, PreferredMfa: false },
    });
    expect((await client.passwordAuth("smsuser", password)).json().AuthenticationResult).toBeDefined();
    const changes = await optional.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "auth.mfa-preference"), eq(auditEvents.actorUsername, "smsuser")));
    expect(changes).toHaveLength(2);
  });

  it("asks for no MFA code when MFA is turned off for the pool", async () => {
    const client = identityClient(off);
    const password = await off.addUser("nomfa", ["reviewer"]);
    await client.setUser("nomfa", { totpSecret: createTotpSecret(), totpEnabled: true });
    expect((await client.passwordAuth("nomfa", password)).json().AuthenticationResult).toBeDefined();
    const { accessToken } = await off.signIn("nomfa", password);
    const associate = await off.cognito("AssociateSoftwareToken", { AccessToken: accessToken });
    expect(associate.json().__type).toBe("InvalidParameterException");
  });

  it("records the client's address and user agent with each sign-in", async () => {
    const client = identityClient(optional);
    const password = await optional.addUser("audited", ["reviewer"]);
    const response = await client.passwordAuth("audited", password, { "user-agent": "VigilTest/1.0" });
    expect(response.statusCode).toBe(200);
    const [event] = await optional.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "auth.sign-in"), eq(auditEvents.actorUsername, "audited")));
    expect(event).toMatchObject({ outcome: "success", ip: "127.0.0.1", userAgent: "VigilTest/1.0" });
  });

  it("uses the configured client id for challenges", async () => {
    const client = identityClient(optional);
    const password = await optional.addUser("clientcheck", ["reviewer"]);
    await client.setUser("clientcheck", { totpSecret: createTotpSecret(), totpEnabled: true });
    const challenge = (await client.passwordAuth("clientcheck", password)).json();
    const response = await optional.cognito("RespondToAuthChallenge", {
      ChallengeName: "SOFTWARE_TOKEN_MFA",
      ClientId: "someone-else",
      Session: challenge.Session,
      ChallengeResponses: { USERNAME: "clientcheck", SOFTWARE_TOKEN_MFA_CODE: "123456" },
    });
    expect(response.json().__type).toBe("ResourceNotFoundException");
  });
});
