import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, signInFailures } from "../db/schema.js";
import { awayFromStepEdge, identityClient, totpCode } from "../testing/identity-helpers.js";
import { createTestApp, type TestApp } from "../testing/test-app.js";
import { createUser } from "./user-directory.js";

/**
 * Wrong codes while setting up an authenticator app (VerifySoftwareToken) count towards the same lock as wrong
 * passwords and sign-in codes (AUTH.md: 5 failures), whether the setup is a step of the sign-in (MFA_SETUP) or made
 * from the account page with an access token; a right code does not count.
 */
let optional: TestApp;
let required: TestApp;

beforeAll(async () => {
  [optional, required] = await Promise.all([createTestApp(), createTestApp({ MFA_MODE: "ON" })]);
});
afterAll(() => Promise.all([optional.close(), required.close()]));

const locked = {
  __type: "LimitExceededException",
  message:
    "Too many wrong codes: wait a moment (longer after each further wrong code), then type the code the app shows now.",
};

async function expireLock(harness: TestApp, usernameKey: string) {
  await harness.database.db
    .update(signInFailures)
    .set({ lockedUntil: new Date(Date.now() - 1000) })
    .where(eq(signInFailures.usernameKey, usernameKey));
}

describe("VerifySoftwareToken's attempt limit", () => {
  it("refuses a signed-in user's sixth code after 5 wrong ones, even the right one, until the lock ends", async () => {
    const password = await optional.addUser("totp-guesser", ["reviewer"]);
    const { accessToken } = await optional.signIn("totp-guesser", password);
    const secret = (await optional.cognito("AssociateSoftwareToken", { AccessToken: accessToken })).json().SecretCode;
    await awayFromStepEdge();
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const wrong = await optional.cognito("VerifySoftwareToken", {
        AccessToken: accessToken,
        UserCode: totpCode(secret, 10 + attempt),
      });
      expect(wrong.json().__type, `attempt ${attempt}`).toBe("EnableSoftwareTokenMFAException");
    }
    const refused = await optional.cognito("VerifySoftwareToken", {
      AccessToken: accessToken,
      UserCode: totpCode(secret),
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual(locked);
    // The same lock as the sign-in's: the password is refused for now too.
    expect((await identityClient(optional).passwordAuth("totp-guesser", password)).json().message).toBe(
      "Password attempts exceeded",
    );
    const reasons = (
      await optional.database.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.action, "auth.totp-verify"), eq(auditEvents.actorUsername, "totp-guesser")))
    ).map((event) => (event.details as { reason?: string }).reason);
    expect(reasons).toContain("locked out");

    await expireLock(optional, "totp-guesser");
    await awayFromStepEdge();
    const verified = await optional.cognito("VerifySoftwareToken", {
      AccessToken: accessToken,
      UserCode: totpCode(secret),
    });
    expect(verified.json()).toEqual({ Status: "SUCCESS" });
  });

  it("counts wrong codes during the sign-in's MFA_SETUP step the same way", async () => {
    const client = identityClient(required);
    const created = await createUser(
      required.database.db,
      { username: "totp-setup-guesser", email: "tsg@vigil.test", name: "TSG", groups: ["reviewer"] },
      { username: "test" },
    );
    const first = (await client.passwordAuth("totp-setup-guesser", created.temporaryPassword as string)).json();
    const setup = (
      await client.respond("NEW_PASSWORD_REQUIRED", first.Session, {
        USERNAME: "totp-setup-guesser",
        NEW_PASSWORD: "a-long-enough-new-password",
      })
    ).json();
    expect(setup.ChallengeName).toBe("MFA_SETUP");
    const associated = (await required.cognito("AssociateSoftwareToken", { Session: setup.Session })).json();
    await awayFromStepEdge();
    const verify = (code: string) =>
      required.cognito("VerifySoftwareToken", { Session: associated.Session, UserCode: code });
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      expect((await verify(totpCode(associated.SecretCode, 10 + attempt))).json().__type).toBe(
        "EnableSoftwareTokenMFAException",
      );
    }
    expect((await verify(totpCode(associated.SecretCode))).json()).toEqual(locked);
  });

  it("does not count a right code: four wrong ones and a right one leave no failure behind", async () => {
    const password = await optional.addUser("totp-typo", ["reviewer"]);
    const { accessToken } = await optional.signIn("totp-typo", password);
    const secret = (await optional.cognito("AssociateSoftwareToken", { AccessToken: accessToken })).json().SecretCode;
    await awayFromStepEdge();
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      await optional.cognito("VerifySoftwareToken", {
        AccessToken: accessToken,
        UserCode: totpCode(secret, 10 + attempt),
      });
    }
    const verified = await optional.cognito("VerifySoftwareToken", {
      AccessToken: accessToken,
      UserCode: totpCode(secret),
    });
    expect(verified.json()).toEqual({ Status: "SUCCESS" });
    const [row] = await optional.database.db
      .select()
      .from(signInFailures)
      .where(eq(signInFailures.usernameKey, "totp-typo"));
    expect(row?.failures ?? 0).toBe(4);
    expect(row?.lockedUntil ?? null).toBeNull();
  });
});
