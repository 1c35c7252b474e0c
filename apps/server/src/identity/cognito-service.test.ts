import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, authChallenges } from "../db/schema.js";
import { decodeClaims } from "../testing/forge-token.js";
import { createTestApp, type TestApp, testClientId } from "../testing/test-app.js";
import { createUser } from "./user-directory.js";
import { findUserByUsername, updateUser } from "./users-repository.js";

let harness: TestApp;
let password: string;

beforeAll(async () => {
  harness = await createTestApp();
  password = await harness.addUser("Riley", ["reviewer"]);
});
afterAll(() => harness.close());

const passwordAuth = (username: string, secret: string) =>
  harness.cognito("InitiateAuth", {
    AuthFlow: "USER_PASSWORD_AUTH",
    ClientId: testClientId,
    AuthParameters: { USERNAME: username, PASSWORD: secret },
  });

describe("InitiateAuth with USER_PASSWORD_AUTH", () => {
  it("returns Cognito-shaped tokens for the right password", async () => {
    const response = await passwordAuth("riley", password);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("application/x-amz-json-1.1");
    const result = response.json().AuthenticationResult;
    expect(result).toMatchObject({ TokenType: "Bearer", ExpiresIn: 3600 });
    const id = decodeClaims(result.IdToken);
    expect(id).toMatchObject({
      token_use: "id",
      aud: testClientId,
      iss: "http://vigil.test",
      "cognito:username": "Riley",
      "cognito:groups": ["reviewer"],
      email: "Riley@vigil.test",
      email_verified: true,
      name: "Riley Tester",
    });
    const access = decodeClaims(result.AccessToken);
    expect(access).toMatchObject({
      token_use: "access",
      client_id: testClientId,
      username: "Riley",
      scope: "aws.cognito.signin.user.admin",
    });
    // Amplify only revokes on sign-out when origin_jti is present; both tokens share it.
    expect(access.origin_jti).toBe(id.origin_jti);
    expect(typeof access.jti).toBe("string");
    expect(result.RefreshToken.length).toBeGreaterThanOrEqual(40);
  });

  it("answers unknown users, wrong passwords and disabled users identically", async () => {
    const disabledPassword = await harness.addUser("dana", ["billing"]);
    const dana = await findUserByUsername(harness.database.db, "dana");
    await updateUser(harness.database.db, dana?.sub as string, { enabled: false });

    const answers = await Promise.all([
      passwordAuth("nobody-here", "whatever-password"),
      passwordAuth("riley", "wrong-password"),
      passwordAuth("dana", disabledPassword),
    ]);
    for (const answer of answers) {
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toEqual({ __type: "NotAuthorizedException", message: "Incorrect username or password." });
      expect(answer.headers["x-amzn-errortype"]).toBe("NotAuthorizedException");
    }
    // The audit log keeps the true reasons.
    const reasons = (
      await harness.database.db.select().from(auditEvents).where(eq(auditEvents.outcome, "failure"))
    ).map((event) => (event.details as { reason: string }).reason);
    expect(reasons).toEqual(expect.arrayContaining(["unknown user", "wrong password", "user disabled"]));
  });

  it("spends comparable time on unknown users and wrong passwords", async () => {
    const time = async (username: string) => {
      const started = performance.now();
      await passwordAuth(username, "definitely-wrong");
      return performance.now() - started;
    };
    // The fastest of three calls each: a busy machine's stall in one call must not decide. Three wrong passwords
    // per name stay under the lockout of five (riley has one from the test above).
    const fastest = async (username: string) =>
      Math.min(await time(username), await time(username), await time(username));
    await time("nobody-here");
    const known = await fastest("riley");
    const unknown = await fastest("nobody-here");
    // Both pay for an argon2 verification; without the dummy hash the unknown case would be ~100× faster.
    expect(unknown).toBeGreaterThan(known / 4);
  });

  it("reports missing parameters the way Cognito does", async () => {
    const response = await harness.cognito("InitiateAuth", {
      AuthFlow: "USER_PASSWORD_AUTH",
      ClientId: testClientId,
      AuthParameters: { USERNAME: "riley" },
    });
    expect(response.json()).toEqual({
      __type: "InvalidParameterException",
      message: "Missing required parameter PASSWORD",
    });
  });

  it("refuses an unknown app client", async () => {
    const response = await harness.cognito("InitiateAuth", {
      AuthFlow: "USER_PASSWORD_AUTH",
      ClientId: "other",
      AuthParameters: { USERNAME: "riley", PASSWORD: password },
    });
    expect(response.json().__type).toBe("ResourceNotFoundException");
  });

  it("refuses SRP, which is not implemented, with a clear message", async () => {
    const response = await harness.cognito("InitiateAuth", {
      AuthFlow: "USER_SRP_AUTH",
      ClientId: testClientId,
      AuthParameters: { USERNAME: "riley" },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain("USER_PASSWORD_AUTH");
  });
});

describe("REFRESH_TOKEN_AUTH", () => {
  it("mints new tokens from the same sign-in without a new refresh token", async () => {
    const signIn = (await passwordAuth("riley", password)).json().AuthenticationResult;
    const response = await harness.cognito("InitiateAuth", {
      AuthFlow: "REFRESH_TOKEN_AUTH",
      ClientId: testClientId,
      AuthParameters: { REFRESH_TOKEN: signIn.RefreshToken },
    });
    expect(response.statusCode).toBe(200);
    const result = response.json().AuthenticationResult;
    expect(result.RefreshToken).toBeUndefined();
    expect(decodeClaims(result.IdToken).origin_jti).toBe(decodeClaims(signIn.IdToken).origin_jti);
  });

  it("refuses a revoked or unknown refresh token", async () => {
    const signIn = (await passwordAuth("riley", password)).json().AuthenticationResult;
    await harness.cognito("RevokeToken", { ClientId: testClientId, Token: signIn.RefreshToken });
    for (const token of [signIn.RefreshToken, "made-up-token"]) {
      const response = await harness.cognito("InitiateAuth", {
        AuthFlow: "REFRESH_TOKEN_AUTH",
        ClientId: testClientId,
        AuthParameters: { REFRESH_TOKEN: token },
      });
      expect(response.json()).toEqual({ __type: "NotAuthorizedException", message: "Invalid Refresh Token" });
    }
  });
});

describe("GetTokensFromRefreshToken (how Amplify v6 refreshes)", () => {
  const refresh = (token: string, clientId = testClientId) =>
    harness.cognito("GetTokensFromRefreshToken", { ClientId: clientId, RefreshToken: token });

  it("mints new tokens of the same sign-in with the user's current groups", async () => {
    const signIn = (await passwordAuth("riley", password)).json().AuthenticationResult;
    const response = await refresh(signIn.RefreshToken);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.ChallengeParameters).toBeUndefined();
    expect(body.AuthenticationResult).toMatchObject({ TokenType: "Bearer", ExpiresIn: 3600 });
    expect(body.AuthenticationResult.RefreshToken).toBeUndefined();
    const id = decodeClaims(body.AuthenticationResult.IdToken);
    expect(id.origin_jti).toBe(decodeClaims(signIn.IdToken).origin_jti);
    expect(id["cognito:groups"]).toEqual(["reviewer"]);
    const me = await harness.cognito("GetUser", { AccessToken: body.AuthenticationResult.AccessToken });
    expect(me.json().Username).toBe("Riley");
  });

  it("refuses revoked, unknown and other clients' refresh tokens", async () => {
    const signIn = (await passwordAuth("riley", password)).json().AuthenticationResult;
    await harness.cognito("RevokeToken", { ClientId: testClientId, Token: signIn.RefreshToken });
    for (const token of [signIn.RefreshToken, "made-up-token"]) {
      const response = await refresh(token);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ __type: "NotAuthorizedException", message: "Invalid Refresh Token" });
    }
    const live = (await passwordAuth("riley", password)).json().AuthenticationResult;
    expect((await refresh(live.RefreshToken, "someone-elses-client")).json().__type).toBe("ResourceNotFoundException");
  });

  it("tells the holder of a disabled user's refresh token that the user is disabled, and nobody else", async () => {
    const olaPassword = await harness.addUser("ola", ["billing"]);
    const ola = (await passwordAuth("ola", olaPassword)).json().AuthenticationResult;
    const row = await findUserByUsername(harness.database.db, "ola");
    await updateUser(harness.database.db, row?.sub as string, { enabled: false });
    const refused = await refresh(ola.RefreshToken);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ __type: "NotAuthorizedException", message: "User is disabled." });
    // Without the token the account's state stays unknown: the same answer as any invented token.
    expect((await refresh("made-up-token")).json()).toEqual({
      __type: "NotAuthorizedException",
      message: "Invalid Refresh Token",
    });
  });

  it("says a password reset is required to the holder of a sign-in an administrator's reset ended", async () => {
    const adminToken = await harness.tokenFor("rhea-admin", ["admin"]);
    const quinnPassword = await harness.addUser("quinn", ["coordinator"]);
    const quinn = (await passwordAuth("quinn", quinnPassword)).json().AuthenticationResult;
    const reset = await harness.app.inject({
      method: "POST",
      url: "/api/users/quinn/reset-password",
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const refused = await refresh(quinn.RefreshToken);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      __type: "PasswordResetRequiredException",
      message: "Password reset required for the user",
    });
  });

  it("says 'revoked' to the holder of a sign-in its user ended with all the others, as Cognito does", async () => {
    const riley = (await passwordAuth("riley", password)).json().AuthenticationResult;
    expect((await harness.cognito("GlobalSignOut", { AccessToken: riley.AccessToken })).statusCode).toBe(200);
    expect((await refresh(riley.RefreshToken)).json()).toEqual({
      __type: "NotAuthorizedException",
      message: "Refresh Token has been revoked",
    });
  });

  it("says which field is missing", async () => {
    const response = await harness.cognito("GetTokensFromRefreshToken", { ClientId: testClientId });
    expect(response.statusCode).toBe(400);
    expect(response.json().__type).toBe("InvalidParameterException");
  });
});

describe("NEW_PASSWORD_REQUIRED for an administrator-created user", () => {
  let temporaryPassword: string;
  beforeAll(async () => {
    const created = await createUser(
      harness.database.db,
      { username: "newbie", email: "newbie@vigil.test", name: "New Bie", groups: ["technologist"] },
      { username: "test" },
    );
    temporaryPassword = created.temporaryPassword as string;
  });

  it("answers the temporary password with the challenge, not tokens", async () => {
    const response = await passwordAuth("newbie", temporaryPassword);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.ChallengeName).toBe("NEW_PASSWORD_REQUIRED");
    expect(body.AuthenticationResult).toBeUndefined();
    expect(body.Session.length).toBeGreaterThanOrEqual(22);
    expect(JSON.parse(body.ChallengeParameters.requiredAttributes)).toEqual([]);
    expect(JSON.parse(body.ChallengeParameters.userAttributes)).toMatchObject({ email: "newbie@vigil.test" });
  });

  it("refuses a new password that breaks the policy and keeps the session usable", async () => {
    const session = (await passwordAuth("newbie", temporaryPassword)).json().Session;
    const respond = (newPassword: string) =>
      harness.cognito("RespondToAuthChallenge", {
        ChallengeName: "NEW_PASSWORD_REQUIRED",
        ClientId: testClientId,
        Session: session,
        ChallengeResponses: { USERNAME: "newbie", NEW_PASSWORD: newPassword },
      });
    const short = await respond("short");
    expect(short.json()).toEqual({
      __type: "InvalidPasswordException",
      message: "Password does not conform to policy: Password not long enough",
    });
    const accepted = await respond("a-long-enough-new-password");
    expect(accepted.statusCode).toBe(200);
    expect(decodeClaims(accepted.json().AuthenticationResult.IdToken)["cognito:username"]).toBe("newbie");
    // The old temporary password no longer works; the new one signs in directly.
    expect((await passwordAuth("newbie", temporaryPassword)).json().__type).toBe("NotAuthorizedException");
    expect((await passwordAuth("newbie", "a-long-enough-new-password")).json().AuthenticationResult).toBeDefined();
    // A session is single use.
    expect((await respond("another-long-password")).json().message).toBe(
      "Invalid session for the user, session is expired.",
    );
  });

  it("refuses an expired session with Cognito's message", async () => {
    const other = await createUser(
      harness.database.db,
      { username: "late", email: "late@vigil.test", name: "Late", groups: [] },
      { username: "test" },
    );
    const session = (await passwordAuth("late", other.temporaryPassword as string)).json().Session;
    await harness.database.db.update(authChallenges).set({ expiresAt: new Date(Date.now() - 1000) });
    const response = await harness.cognito("RespondToAuthChallenge", {
      ChallengeName: "NEW_PASSWORD_REQUIRED",
      ClientId: testClientId,
      Session: session,
      ChallengeResponses: { USERNAME: "late", NEW_PASSWORD: "a-long-enough-new-password" },
    });
    expect(response.json()).toEqual({
      __type: "NotAuthorizedException",
      message: "Invalid session for the user, session is expired.",
    });
  });

  it("does not reveal the challenge to a wrong password", async () => {
    expect((await passwordAuth("late", "not-the-temporary-one")).json().__type).toBe("NotAuthorizedException");
  });

  it("refuses an expired temporary password only once the password is proven", async () => {
    const expired = await createUser(
      harness.database.db,
      { username: "stale", email: "stale@vigil.test", name: "Stale", groups: [] },
      { username: "test" },
    );
    const row = await findUserByUsername(harness.database.db, "stale");
    await updateUser(harness.database.db, row?.sub as string, {
      temporaryPasswordExpiresAt: new Date(Date.now() - 1000),
    });
    expect((await passwordAuth("stale", expired.temporaryPassword as string)).json()).toEqual({
      __type: "NotAuthorizedException",
      message: "Temporary password has expired and must be reset by an administrator.",
    });
    expect((await passwordAuth("stale", "wrong")).json().message).toBe("Incorrect username or password.");
  });
});

describe("GetUser, RevokeToken and unsupported operations", () => {
  it("returns the user's attributes for a valid access token", async () => {
    const { accessToken } = await harness.signIn("riley", password);
    const response = await harness.cognito("GetUser", { AccessToken: accessToken });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.Username).toBe("Riley");
    expect(body.UserAttributes).toEqual(
      expect.arrayContaining([
        { Name: "email", Value: "Riley@vigil.test" },
        { Name: "email_verified", Value: "true" },
        { Name: "name", Value: "Riley Tester" },
      ]),
    );
  });

  it("refuses GetUser with a revoked access token", async () => {
    const tokens = await harness.signIn("riley", password);
    await harness.cognito("RevokeToken", { ClientId: testClientId, Token: tokens.refreshToken });
    expect((await harness.cognito("GetUser", { AccessToken: tokens.accessToken })).json()).toEqual({
      __type: "NotAuthorizedException",
      message: "Access Token has been revoked",
    });
    expect((await harness.cognito("GetUser", { AccessToken: "garbage" })).json().message).toBe("Invalid Access Token");
  });

  it("answers SignUp and other unimplemented operations with a Cognito-style error", async () => {
    const response = await harness.cognito("SignUp", { ClientId: testClientId, Username: "x", Password: "y" });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      __type: "UnsupportedOperationException",
      message: "SignUp is not supported by this identity service.",
    });
  });

  it("answers operation names that collide with object internals as unsupported", async () => {
    for (const name of ["constructor", "__proto__", "toString"]) {
      const response = await harness.cognito(name, {});
      expect(response.statusCode).toBe(400);
      expect(response.json().__type).toBe("UnsupportedOperationException");
    }
  });

  it("answers a malformed body with a Cognito-style error, never a crash", async () => {
    const response = await harness.app.inject({
      method: "POST",
      url: "/cognito",
      headers: {
        "content-type": "application/x-amz-json-1.1",
        "x-amz-target": "AWSCognitoIdentityProviderService.InitiateAuth",
      },
      payload: "{oops",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().__type).toBe("SerializationException");
    const wrongShape = await harness.cognito("InitiateAuth", { AuthFlow: 7 });
    expect(wrongShape.statusCode).toBe(400);
    expect(wrongShape.json().__type).toBe("InvalidParameterException");
  });
});

describe("published keys", () => {
  it("publishes the signing key as JWKS and an OpenID configuration beside it", async () => {
    const jwks = (await harness.app.inject({ method: "GET", url: "/.well-known/jwks.json" })).json();
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig" });
    expect(jwks.keys[0].d).toBeUndefined();
    const discovery = (await harness.app.inject({ method: "GET", url: "/.well-known/openid-configuration" })).json();
    expect(discovery).toMatchObject({
      issuer: "http://vigil.test",
      jwks_uri: "http://vigil.test/.well-known/jwks.json",
      id_token_signing_alg_values_supported: ["ES256"],
    });
  });
});
