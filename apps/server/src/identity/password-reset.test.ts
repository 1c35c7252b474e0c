import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, signInFailures, verificationCodes } from "../db/schema.js";
import { identityClient } from "../testing/identity-helpers.js";
import { createTestApp, type TestApp, testClientId } from "../testing/test-app.js";

let harness: TestApp;
let limited: TestApp;

beforeAll(async () => {
  [harness, limited] = await Promise.all([
    createTestApp(),
    createTestApp({ RESET_CODE_REQUESTS_PER_HOUR: "2", RESET_CODE_CONFIRMATIONS_PER_HOUR: "3" }),
  ]);
});
afterAll(() => Promise.all([harness.close(), limited.close()]));

const forgot = (app: TestApp, username: string) =>
  app.cognito("ForgotPassword", { ClientId: testClientId, Username: username });
const confirm = (app: TestApp, username: string, code: string, password: string) =>
  app.cognito("ConfirmForgotPassword", {
    ClientId: testClientId,
    Username: username,
    ConfirmationCode: code,
    Password: password,
  });
const otherCode = (code: string) => (code === "000000" ? "111111" : "000000");
const chrome = (app: TestApp, idToken: string) =>
  app.app.inject({ method: "GET", url: "/api/chrome", headers: { authorization: `Bearer ${idToken}` } });

describe("sequence 6: password → PasswordResetRequiredException → ForgotPassword → code + new password", () => {
  it("resets the password of a user an administrator marked, with the code sent by email", async () => {
    const client = identityClient(harness);
    const password = await harness.addUser("Resetter", ["reviewer"]);
    await client.setUser("resetter", { status: "RESET_REQUIRED", emailVerified: false });

    expect((await client.passwordAuth("resetter", password)).json()).toEqual({
      __type: "PasswordResetRequiredException",
      message: "Password reset required for the user",
    });
    const requested = await forgot(harness, "resetter");
    expect(requested.statusCode).toBe(200);
    expect(requested.json()).toEqual({
      CodeDeliveryDetails: { Destination: "R***r@vigil.test", DeliveryMedium: "EMAIL", AttributeName: "email" },
    });
    const [mail] = await harness.app.messages.listOutbox({ recipient: "Resetter@vigil.test", limit: 1 });
    expect(mail?.subject).toMatch(/Vigil/);
    expect(mail?.body).toMatch(/minute/);
    const code = await client.latestCode("Resetter@vigil.test");

    expect((await confirm(harness, "resetter", otherCode(code), "a-brand-new-password")).json()).toEqual({
      __type: "CodeMismatchException",
      message: "Invalid verification code provided, please try again.",
    });
    // A password that breaks the policy is refused without spending the code.
    expect((await confirm(harness, "resetter", code, "password1234")).json().__type).toBe("InvalidPasswordException");
    const done = await confirm(harness, "resetter", code, "a-brand-new-password");
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({});

    const row = await client.user("resetter");
    expect(row).toMatchObject({ status: "CONFIRMED", emailVerified: true });
    expect((await client.passwordAuth("resetter", password)).json().__type).toBe("NotAuthorizedException");
    expect((await client.passwordAuth("resetter", "a-brand-new-password")).json().AuthenticationResult).toBeDefined();
    // A code works once.
    expect((await confirm(harness, "resetter", code, "yet-another-password")).json().__type).toBe(
      "CodeMismatchException",
    );
  });

  it("ends every session of the user at once", async () => {
    const client = identityClient(harness);
    const password = await harness.addUser("revoked", ["coordinator"]);
    const tokens = await harness.signIn("revoked", password);
    expect((await chrome(harness, tokens.idToken)).statusCode).toBe(200);
    await forgot(harness, "revoked");
    await confirm(harness, "revoked", await client.latestCode("revoked@vigil.test"), "a-brand-new-password");
    expect((await chrome(harness, tokens.idToken)).statusCode).toBe(401);
    const refresh = await harness.cognito("InitiateAuth", {
      AuthFlow: "REFRESH_TOKEN_AUTH",
      ClientId: testClientId,
      AuthParameters: { REFRESH_TOKEN: tokens.refreshToken },
    });
    expect(refresh.json().__type).toBe("NotAuthorizedException");
    const event = await harness.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "auth.password-reset"), eq(auditEvents.actorUsername, "revoked")));
    expect(event[0]?.details).toMatchObject({ revokedSessions: 1 });
  });
});

describe("ForgotPassword", () => {
  it("answers a name without an account exactly like one with an account", async () => {
    await harness.addUser("riley", ["reviewer"]);
    const [known, unknown] = await Promise.all([forgot(harness, "riley"), forgot(harness, "rory")]);
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(known.json().CodeDeliveryDetails.Destination).toBe("r***y@vigil.test");
    // The same fields; the destination a decoy modelled on a real user (forgot-password-privacy.test.ts).
    expect({ ...unknown.json().CodeDeliveryDetails, Destination: "" }).toEqual({
      ...known.json().CodeDeliveryDetails,
      Destination: "",
    });
    expect(unknown.json().CodeDeliveryDetails.Destination).toMatch(/^[^*@]\*\*\*[^*@]?@vigil\.test$/);
    // Only the real account got a message.
    expect(await harness.app.messages.listOutbox({ recipient: "rory@vigil.test" })).toHaveLength(0);
    const reasons = (
      await harness.database.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.action, "auth.forgot-password"), eq(auditEvents.outcome, "failure")))
    ).map((event) => (event.details as { reason: string }).reason);
    expect(reasons).toContain("unknown user");
  });

  it("answers a disabled user like any other, without sending a code", async () => {
    const client = identityClient(harness);
    await harness.addUser("dormant", ["reviewer"]);
    await client.setUser("dormant", { enabled: false });
    const answer = await forgot(harness, "dormant");
    expect(answer.statusCode).toBe(200);
    expect(answer.json().CodeDeliveryDetails).toMatchObject({
      DeliveryMedium: "EMAIL",
      Destination: "d***t@vigil.test",
    });
    expect(await client.outboxCount("dormant@vigil.test")).toBe(0);
  });

  it("gives CodeMismatchException for a name without an account, as for a wrong code", async () => {
    await harness.addUser("hasaccount", ["reviewer"]);
    await forgot(harness, "hasaccount");
    const [unknown, wrong] = await Promise.all([
      confirm(harness, "noaccount", "123456", "a-brand-new-password"),
      confirm(harness, "hasaccount", "123456", "a-brand-new-password"),
    ]);
    expect(unknown.body).toBe(wrong.body);
    expect(unknown.json().__type).toBe("CodeMismatchException");
  });

  it("replaces the code on reissue: only the newest works", async () => {
    const client = identityClient(harness);
    await harness.addUser("twice", ["reviewer"]);
    await forgot(harness, "twice");
    const first = await client.latestCode("twice@vigil.test");
    await forgot(harness, "twice");
    const second = await client.latestCode("twice@vigil.test");
    const codes = await harness.database.db
      .select()
      .from(verificationCodes)
      .where(eq(verificationCodes.userSub, (await client.user("twice")).sub));
    expect(codes).toHaveLength(1);
    // Stored as a digest, never as the digits.
    expect(codes[0]?.codeHash).not.toContain(second);
    if (first !== second) {
      expect((await confirm(harness, "twice", first, "a-brand-new-password")).json().__type).toBe(
        "CodeMismatchException",
      );
    }
    expect((await confirm(harness, "twice", second, "a-brand-new-password")).statusCode).toBe(200);
  });

  it("says a code expired after an hour only to someone who has the code", async () => {
    const client = identityClient(harness);
    await harness.addUser("latecomer", ["reviewer"]);
    await forgot(harness, "latecomer");
    const code = await client.latestCode("latecomer@vigil.test");
    const [row] = await harness.database.db
      .select()
      .from(verificationCodes)
      .where(eq(verificationCodes.userSub, (await client.user("latecomer")).sub));
    const lifetime = (row?.expiresAt.getTime() ?? 0) - (row?.createdAt.getTime() ?? 0);
    expect(Math.abs(lifetime - 3_600_000)).toBeLessThan(5_000);
    await harness.database.db
      .update(verificationCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verificationCodes.id, row?.id as string));
    expect((await confirm(harness, "latecomer", otherCode(code), "a-brand-new-password")).json().__type).toBe(
      "CodeMismatchException",
    );
    expect((await confirm(harness, "latecomer", code, "a-brand-new-password")).json()).toEqual({
      __type: "ExpiredCodeException",
      message: "Invalid code provided, please request a code again.",
    });
  });

  it("kills a code after 5 wrong guesses", async () => {
    const client = identityClient(harness);
    await harness.addUser("guessed", ["reviewer"]);
    await forgot(harness, "guessed");
    const code = await client.latestCode("guessed@vigil.test");
    for (let guess = 0; guess < 5; guess++) {
      await confirm(harness, "guessed", otherCode(code), "a-brand-new-password");
    }
    expect((await confirm(harness, "guessed", code, "a-brand-new-password")).json().__type).toBe(
      "ExpiredCodeException",
    );
  });

  it("unlocks a locked-out name once the password is reset", async () => {
    const client = identityClient(harness);
    await harness.addUser("unlocked", ["reviewer"]);
    for (let attempt = 0; attempt < 6; attempt++) await client.passwordAuth("unlocked", "wrong-password");
    await forgot(harness, "unlocked");
    await confirm(harness, "unlocked", await client.latestCode("unlocked@vigil.test"), "a-brand-new-password");
    const rows = await harness.database.db
      .select()
      .from(signInFailures)
      .where(eq(signInFailures.usernameKey, "unlocked"));
    expect(rows).toHaveLength(0);
    expect((await client.passwordAuth("unlocked", "a-brand-new-password")).json().AuthenticationResult).toBeDefined();
  });
});

describe("per-user hourly limits", () => {
  it("limits reset requests per name, known or not", async () => {
    await limited.addUser("frequent", ["reviewer"]);
    for (const name of ["frequent", "infrequent-ghost"]) {
      expect((await forgot(limited, name)).statusCode).toBe(200);
      expect((await forgot(limited, name)).statusCode).toBe(200);
    }
    const [known, unknown] = await Promise.all([forgot(limited, "frequent"), forgot(limited, "infrequent-ghost")]);
    expect(known.json()).toEqual({
      __type: "LimitExceededException",
      message: "Attempt limit exceeded, please try after some time.",
    });
    expect(unknown.body).toBe(known.body);
    // Another name is not affected.
    expect((await forgot(limited, "someone-else")).statusCode).toBe(200);
  });

  it("limits confirmations per name, even with the right code", async () => {
    const client = identityClient(limited);
    await limited.addUser("confirmer", ["reviewer"]);
    await forgot(limited, "confirmer");
    const code = await client.latestCode("confirmer@vigil.test");
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await confirm(limited, "confirmer", otherCode(code), "a-brand-new-password")).json().__type).toBe(
        "CodeMismatchException",
      );
    }
    expect((await confirm(limited, "confirmer", code, "a-brand-new-password")).json().__type).toBe(
      "LimitExceededException",
    );
  });
});

describe("ChangePassword", () => {
  it("checks the previous password and the policy, then ends the user's other sessions", async () => {
    const client = identityClient(harness);
    const password = await harness.addUser("changer", ["coordinator"]);
    const other = await harness.signIn("changer", password);
    const current = await harness.signIn("changer", password);
    const change = (previous: string, proposed: string) =>
      harness.cognito("ChangePassword", {
        AccessToken: current.accessToken,
        PreviousPassword: previous,
        ProposedPassword: proposed,
      });
    expect((await change("not-my-password", "a-brand-new-password")).json()).toEqual({
      __type: "NotAuthorizedException",
      message: "Incorrect username or password.",
    });
    expect((await change(password, "qwertyuiop123")).json()).toEqual({
      __type: "InvalidPasswordException",
      message: "Password does not conform to policy: Password is too common",
    });
    const done = await change(password, "a-brand-new-password");
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({});
    expect((await chrome(harness, other.idToken)).statusCode).toBe(401);
    expect((await chrome(harness, current.idToken)).statusCode).toBe(200);
    expect((await client.passwordAuth("changer", password)).json().__type).toBe("NotAuthorizedException");
    expect((await client.passwordAuth("changer", "a-brand-new-password")).json().AuthenticationResult).toBeDefined();
  });

  it("locks out guessing of the previous password with a stolen access token", async () => {
    const password = await harness.addUser("guarded", ["reviewer"]);
    const { accessToken } = await harness.signIn("guarded", password);
    const change = (previous: string) =>
      harness.cognito("ChangePassword", {
        AccessToken: accessToken,
        PreviousPassword: previous,
        ProposedPassword: "a-brand-new-password",
      });
    for (let guess = 0; guess < 5; guess++) await change(`guess-${guess}-password`);
    expect((await change(password)).json()).toEqual({
      __type: "NotAuthorizedException",
      message: "Password attempts exceeded",
    });
  });
});
