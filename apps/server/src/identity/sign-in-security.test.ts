import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, rateLimits, signInFailures } from "../db/schema.js";
import { awayFromStepEdge, cognito, identityClient, totpCode } from "../testing/identity-helpers.js";
import { createTestApp, type TestApp, testClientId } from "../testing/test-app.js";
import { deleteStaleRateLimits, hitRateLimit } from "./rate-limits-repository.js";
import { deleteForgottenSignInFailures } from "./sign-in-failures-repository.js";
import { createTotpSecret } from "./totp.js";
import { createUser } from "./user-directory.js";

let harness: TestApp;
let throttled: TestApp;

beforeAll(async () => {
  [harness, throttled] = await Promise.all([
    createTestApp(),
    // Behind a trusted proxy, so requests can come "from" different addresses.
    createTestApp({ IDENTITY_REQUESTS_PER_IP: "3", IDENTITY_IP_WINDOW_SECONDS: "60", TRUST_PROXY: "127.0.0.1" }),
  ]);
});
afterAll(() => Promise.all([harness.close(), throttled.close()]));

const failureRow = async (usernameKey: string) => {
  const [row] = await harness.database.db
    .select()
    .from(signInFailures)
    .where(eq(signInFailures.usernameKey, usernameKey));
  return row;
};

/** Moves past the current lock, as if its time had passed. */
const expireLock = (usernameKey: string) =>
  harness.database.db
    .update(signInFailures)
    .set({ lockedUntil: new Date(Date.now() - 1000) })
    .where(eq(signInFailures.usernameKey, usernameKey));

const lockSeconds = (row: { lockedUntil: Date | null; lastFailureAt: Date } | undefined) =>
  row?.lockedUntil ? Math.round((row.lockedUntil.getTime() - row.lastFailureAt.getTime()) / 1000) : 0;

describe("answers that do not reveal accounts", () => {
  it("answers unknown users, wrong passwords, disabled users and wrong temporary passwords byte for byte alike", async () => {
    const client = identityClient(harness);
    await harness.addUser("known", ["reviewer"]);
    const disabledPassword = await harness.addUser("switchedoff", ["reviewer"]);
    await client.setUser("switchedoff", { enabled: false });
    await createUser(
      harness.database.db,
      { username: "invited", email: "invited@vigil.test", name: "Invited", groups: [] },
      { username: "test" },
    );
    const resetPassword = await harness.addUser("mustreset", ["reviewer"]);
    await client.setUser("mustreset", { status: "RESET_REQUIRED" });

    const answers = await Promise.all([
      client.passwordAuth("nobody-at-all", "whatever-password"),
      client.passwordAuth("known", "wrong-password"),
      client.passwordAuth("switchedoff", disabledPassword),
      client.passwordAuth("invited", "not-the-temporary-password"),
      client.passwordAuth("mustreset", `${resetPassword}-wrong`),
    ]);
    const [first] = answers;
    for (const answer of answers) {
      expect(answer.statusCode).toBe(400);
      expect(answer.body).toBe(first?.body);
      expect(answer.headers["x-amzn-errortype"]).toBe("NotAuthorizedException");
      expect(answer.headers["content-type"]).toBe(first?.headers["content-type"]);
    }
    expect(first?.json()).toEqual({ __type: "NotAuthorizedException", message: "Incorrect username or password." });

    // With the right password, the account's state may show.
    expect((await client.passwordAuth("mustreset", resetPassword)).json()).toEqual({
      __type: "PasswordResetRequiredException",
      message: "Password reset required for the user",
    });
    const reasons = (
      await harness.database.db.select().from(auditEvents).where(eq(auditEvents.action, "auth.sign-in"))
    ).map((event) => (event.details as { reason?: string } | null)?.reason);
    expect(reasons).toEqual(
      expect.arrayContaining([
        "unknown user",
        "wrong password",
        "user disabled",
        "wrong temporary password",
        "password reset required",
      ]),
    );
  });
});

describe("lockout per username", () => {
  it("locks a name for 1 s after 5 failures, even against the right password", async () => {
    const client = identityClient(harness);
    const password = await harness.addUser("Locksmith", ["reviewer"]);
    for (let attempt = 1; attempt <= 5; attempt++) {
      const answer = await client.passwordAuth("locksmith", "wrong-password");
      expect(answer.json().message).toBe("Incorrect username or password.");
    }
    const row = await failureRow("locksmith");
    expect(row?.failures).toBe(5);
    expect(lockSeconds(row)).toBe(1);
    // The key is the normalised name: another spelling is the same account.
    expect((await client.passwordAuth("LOCKSMITH", password)).json()).toEqual({
      __type: "NotAuthorizedException",
      message: "Password attempts exceeded",
    });
    await expireLock("locksmith");
    expect((await client.passwordAuth("locksmith", password)).json().AuthenticationResult).toBeDefined();
    // Success resets the count.
    expect(await failureRow("locksmith")).toBeUndefined();
  });

  it("doubles the lock with each further failure, up to 15 minutes", async () => {
    const client = identityClient(harness);
    await harness.addUser("doubler", ["reviewer"]);
    for (let attempt = 1; attempt <= 5; attempt++) await client.passwordAuth("doubler", "wrong-password");
    expect(lockSeconds(await failureRow("doubler"))).toBe(1);
    for (const expected of [2, 4, 8, 16]) {
      // Still locked: refused without counting.
      expect((await client.passwordAuth("doubler", "wrong-password")).json().message).toBe(
        "Password attempts exceeded",
      );
      await expireLock("doubler");
      expect((await client.passwordAuth("doubler", "wrong-password")).json().message).toBe(
        "Incorrect username or password.",
      );
      expect(lockSeconds(await failureRow("doubler"))).toBe(expected);
    }
    expect((await failureRow("doubler"))?.failures).toBe(9);
    // 2^(14−5) = 512 s; 2^(15−5) = 1024 s is capped at 900 s.
    await harness.database.db
      .update(signInFailures)
      .set({ failures: 13, lockedUntil: null })
      .where(eq(signInFailures.usernameKey, "doubler"));
    await client.passwordAuth("doubler", "wrong-password");
    expect(lockSeconds(await failureRow("doubler"))).toBe(512);
    await expireLock("doubler");
    await client.passwordAuth("doubler", "wrong-password");
    expect(lockSeconds(await failureRow("doubler"))).toBe(900);
    await expireLock("doubler");
    await client.passwordAuth("doubler", "wrong-password");
    expect(lockSeconds(await failureRow("doubler"))).toBe(900);
  });

  it("locks names that do not exist the same way, so a lock reveals nothing", async () => {
    const client = identityClient(harness);
    const password = await harness.addUser("realname", ["reviewer"]);
    for (let attempt = 1; attempt <= 5; attempt++) {
      await client.passwordAuth("realname", "wrong-password");
      await client.passwordAuth("ghostname", "wrong-password");
    }
    const real = await client.passwordAuth("realname", password);
    const ghost = await client.passwordAuth("ghostname", "wrong-password");
    expect(real.statusCode).toBe(ghost.statusCode);
    expect(real.body).toBe(ghost.body);
    expect(ghost.json().message).toBe("Password attempts exceeded");
    expect(lockSeconds(await failureRow("ghostname"))).toBe(1);
  });

  it("counts a burst of parallel guesses exactly: five are checked, the rest refused", async () => {
    const client = identityClient(harness);
    await harness.addUser("burst", ["reviewer"]);
    const answers = await Promise.all(Array.from({ length: 10 }, () => client.passwordAuth("burst", "wrong-password")));
    const messages = answers.map((answer) => answer.json().message);
    expect(messages.filter((message) => message === "Incorrect username or password.")).toHaveLength(5);
    expect(messages.filter((message) => message === "Password attempts exceeded")).toHaveLength(5);
  });

  it("forgets failures older than a day", async () => {
    const client = identityClient(harness);
    await harness.addUser("forgiven", ["reviewer"]);
    for (let attempt = 1; attempt <= 5; attempt++) await client.passwordAuth("forgiven", "wrong-password");
    await harness.database.db
      .update(signInFailures)
      .set({ lockedUntil: null, lastFailureAt: new Date(Date.now() - 25 * 3_600_000) })
      .where(eq(signInFailures.usernameKey, "forgiven"));
    await client.passwordAuth("forgiven", "wrong-password");
    const row = await failureRow("forgiven");
    expect(row?.failures).toBe(1);
    expect(row?.lockedUntil).toBeNull();
  });

  it("counts wrong MFA codes like wrong passwords, while a right password does not count", async () => {
    const client = identityClient(harness);
    const password = await harness.addUser("mfaguess", ["reviewer"]);
    const secret = createTotpSecret();
    await client.setUser("mfaguess", { totpSecret: secret, totpEnabled: true });
    await awayFromStepEdge();
    const challenge = (await client.passwordAuth("mfaguess", password)).json();
    expect(challenge.ChallengeName).toBe("SOFTWARE_TOKEN_MFA");
    expect((await failureRow("mfaguess"))?.failures).toBe(0);
    for (let attempt = 1; attempt <= 5; attempt++) {
      const wrong = await client.respond("SOFTWARE_TOKEN_MFA", challenge.Session, {
        USERNAME: "mfaguess",
        SOFTWARE_TOKEN_MFA_CODE: totpCode(secret, 10 + attempt),
      });
      expect(wrong.json().__type).toBe("CodeMismatchException");
    }
    // Locked: even the right code is refused now, and a new password round does not reset the count.
    const right = await client.respond("SOFTWARE_TOKEN_MFA", challenge.Session, {
      USERNAME: "mfaguess",
      SOFTWARE_TOKEN_MFA_CODE: totpCode(secret),
    });
    expect(right.json()).toEqual({ __type: "NotAuthorizedException", message: "Password attempts exceeded" });
    expect((await client.passwordAuth("mfaguess", password)).json().message).toBe("Password attempts exceeded");
    await expireLock("mfaguess");
    const again = (await client.passwordAuth("mfaguess", password)).json();
    expect((await failureRow("mfaguess"))?.failures).toBe(5);
    const done = await client.respond("SOFTWARE_TOKEN_MFA", again.Session, {
      USERNAME: "mfaguess",
      SOFTWARE_TOKEN_MFA_CODE: totpCode(secret),
    });
    expect(done.statusCode).toBe(200);
    expect(await failureRow("mfaguess")).toBeUndefined();
  });
});

describe("per-IP throttling of unauthenticated operations", () => {
  it("answers TooManyRequestsException with Retry-After past the limit, per client address", async () => {
    const fromA = { "x-forwarded-for": "203.0.113.7" };
    const fromB = { "x-forwarded-for": "203.0.113.8" };
    const auth = (headers: Record<string, string>) =>
      cognito(
        throttled,
        "InitiateAuth",
        {
          AuthFlow: "USER_PASSWORD_AUTH",
          ClientId: testClientId,
          AuthParameters: { USERNAME: "nobody", PASSWORD: "whatever-password" },
        },
        headers,
      );
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect((await auth(fromA)).json().__type).toBe("NotAuthorizedException");
    }
    const limited = await auth(fromA);
    expect(limited.statusCode).toBe(400);
    expect(limited.json()).toEqual({
      __type: "TooManyRequestsException",
      message: "Too many requests, please try again later.",
    });
    const retryAfter = Number(limited.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Every unauthenticated operation shares the budget, even ones that would fail anyway.
    const forgot = await cognito(throttled, "ForgotPassword", { ClientId: testClientId, Username: "x" }, fromA);
    expect(forgot.json().__type).toBe("TooManyRequestsException");
    // An access token sent along with an operation that does not use one does not buy a way round.
    const disguised = await cognito(
      throttled,
      "InitiateAuth",
      {
        AuthFlow: "USER_PASSWORD_AUTH",
        ClientId: testClientId,
        AccessToken: "anything",
        AuthParameters: { USERNAME: "nobody", PASSWORD: "whatever-password" },
      },
      fromA,
    );
    expect(disguised.json().__type).toBe("TooManyRequestsException");
    // Another address has its own budget.
    expect((await auth(fromB)).json().__type).toBe("NotAuthorizedException");
    // The first refusal of a window is audited, not every one.
    const refusals = await throttled.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, "auth.throttle"));
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatchObject({ outcome: "denied", ip: "203.0.113.7" });
  });

  it("does not throttle calls made with an access token", async () => {
    const password = await throttled.addUser("busy", ["reviewer"]);
    const fromC = { "x-forwarded-for": "203.0.113.9" };
    const signIn = await cognito(
      throttled,
      "InitiateAuth",
      {
        AuthFlow: "USER_PASSWORD_AUTH",
        ClientId: testClientId,
        AuthParameters: { USERNAME: "busy", PASSWORD: password },
      },
      fromC,
    );
    const accessToken = signIn.json().AuthenticationResult.AccessToken;
    for (let call = 1; call <= 5; call++) {
      expect((await cognito(throttled, "GetUser", { AccessToken: accessToken }, fromC)).statusCode).toBe(200);
    }
  });
});

describe("housekeeping", () => {
  it("forgets stale counters and failures but keeps live ones", async () => {
    const db = harness.database.db;
    const now = new Date();
    await hitRateLimit(db, "housekeeping:old", 5, 60, new Date(now.getTime() - 3 * 3_600_000));
    await hitRateLimit(db, "housekeeping:new", 5, 60, now);
    await db.insert(signInFailures).values([
      { usernameKey: "housekeeping-old", failures: 3, lastFailureAt: new Date(now.getTime() - 2 * 86_400_000) },
      { usernameKey: "housekeeping-new", failures: 3, lastFailureAt: now },
    ]);
    await deleteStaleRateLimits(db, now);
    await deleteForgottenSignInFailures(db, now);
    const counters = (await db.select().from(rateLimits)).map((row) => row.key);
    expect(counters).toContain("housekeeping:new");
    expect(counters).not.toContain("housekeeping:old");
    expect(await failureRow("housekeeping-old")).toBeUndefined();
    expect(await failureRow("housekeeping-new")).toBeDefined();
  });
});

describe("password policy", () => {
  it("refuses common passwords, in Cognito's words", async () => {
    const client = identityClient(harness);
    const created = await createUser(
      harness.database.db,
      { username: "choosy", email: "choosy@vigil.test", name: "Choosy", groups: [] },
      { username: "test" },
    );
    const session = (await client.passwordAuth("choosy", created.temporaryPassword as string)).json().Session;
    const attempt = (password: string) =>
      client.respond("NEW_PASSWORD_REQUIRED", session, { USERNAME: "choosy", NEW_PASSWORD: password });
    expect((await attempt("Password1234")).json()).toEqual({
      __type: "InvalidPasswordException",
      message: "Password does not conform to policy: Password is too common",
    });
    expect((await attempt("short")).json().message).toBe(
      "Password does not conform to policy: Password not long enough",
    );
    expect((await attempt("stable-orchid-lantern")).statusCode).toBe(200);
  });
});
