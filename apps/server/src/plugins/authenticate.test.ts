import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findUserByUsername, updateUser } from "../identity/users-repository.js";
import { decodeClaims, forgeToken, unsignedToken } from "../testing/forge-token.js";
import { createTestApp, type TestApp, testClientId } from "../testing/test-app.js";

let harness: TestApp;
let password: string;
let idToken: string;

beforeAll(async () => {
  harness = await createTestApp();
  password = await harness.addUser("casey", ["coordinator"]);
  idToken = (await harness.signIn("casey", password)).idToken;
});
afterAll(() => harness.close());

const chrome = (authorization?: string) =>
  harness.app.inject({ method: "GET", url: "/api/chrome", headers: authorization ? { authorization } : {} });

function expectUnauthorized(response: Awaited<ReturnType<typeof chrome>>) {
  expect(response.statusCode).toBe(401);
  const body = response.json();
  expect(body.enoch).toBe("test-release");
  expect(body.error).toMatchObject({ status: 401, code: "unauthorized" });
  expect(body.data).toBeUndefined();
}

describe("the API's token check", () => {
  it("accepts the ID token as a Bearer token and as a bare token", async () => {
    expect((await chrome(`Bearer ${idToken}`)).statusCode).toBe(200);
    expect((await chrome(idToken)).statusCode).toBe(200);
  });

  it("answers 401 without a token", async () => {
    expectUnauthorized(await chrome());
  });

  it("answers 401 for a malformed token", async () => {
    expectUnauthorized(await chrome("Bearer not-a-jwt"));
    expectUnauthorized(await chrome("Bearer a.b.c"));
    expectUnauthorized(await chrome("Bearer "));
  });

  it("answers 401 for a token signed by another key", async () => {
    const claims = decodeClaims(idToken);
    expectUnauthorized(await chrome(`Bearer ${await forgeToken(harness.database.db, claims, { foreignKey: true })}`));
  });

  it("answers 401 for an unsigned alg:none token", async () => {
    expectUnauthorized(await chrome(`Bearer ${unsignedToken(decodeClaims(idToken))}`));
  });

  it("answers 401 for a wrong issuer or audience", async () => {
    const claims = decodeClaims(idToken);
    const db = harness.database.db;
    expectUnauthorized(await chrome(`Bearer ${await forgeToken(db, { ...claims, iss: "https://evil.example" })}`));
    expectUnauthorized(await chrome(`Bearer ${await forgeToken(db, { ...claims, aud: "someone-else" })}`));
    // The same claims, correctly signed, pass: the rejections above are about issuer and audience only.
    expect((await chrome(`Bearer ${await forgeToken(db, claims)}`)).statusCode).toBe(200);
  });

  it("answers 401 for an expired token", async () => {
    const claims = decodeClaims(idToken);
    const past = Math.floor(Date.now() / 1000) - 7200;
    expectUnauthorized(
      await chrome(`Bearer ${await forgeToken(harness.database.db, { ...claims, iat: past, exp: past + 3600 })}`),
    );
  });

  it("answers 401 for an access token used as an ID token", async () => {
    const { accessToken } = await harness.signIn("casey", password);
    expectUnauthorized(await chrome(`Bearer ${accessToken}`));
  });

  it("answers 401 once the refresh token the session came from is revoked", async () => {
    const tokens = await harness.signIn("casey", password);
    expect((await chrome(`Bearer ${tokens.idToken}`)).statusCode).toBe(200);
    const revoke = await harness.cognito("RevokeToken", { ClientId: testClientId, Token: tokens.refreshToken });
    expect(revoke.statusCode).toBe(200);
    expectUnauthorized(await chrome(`Bearer ${tokens.idToken}`));
    // Other sign-ins of the same user are unaffected.
    expect((await chrome(`Bearer ${idToken}`)).statusCode).toBe(200);
  });

  it("answers 401 for every session after a global sign-out", async () => {
    const first = await harness.signIn("casey", password);
    const second = await harness.signIn("casey", password);
    const signOut = await harness.cognito("GlobalSignOut", { AccessToken: first.accessToken });
    expect(signOut.statusCode).toBe(200);
    expectUnauthorized(await chrome(`Bearer ${first.idToken}`));
    expectUnauthorized(await chrome(`Bearer ${second.idToken}`));
    idToken = (await harness.signIn("casey", password)).idToken;
  });

  it("answers 401 as soon as the user is disabled", async () => {
    const blakePassword = await harness.addUser("blake", ["billing"]);
    const { idToken: blakeToken } = await harness.signIn("blake", blakePassword);
    expect((await chrome(`Bearer ${blakeToken}`)).statusCode).toBe(200);
    const blake = await findUserByUsername(harness.database.db, "blake");
    await updateUser(harness.database.db, blake?.sub as string, { enabled: false });
    expectUnauthorized(await chrome(`Bearer ${blakeToken}`));
  });

  it("tells the holder of a disabled user's token that an administrator changed their account", async () => {
    const dalePassword = await harness.addUser("dale", ["billing"]);
    const { idToken: daleToken } = await harness.signIn("dale", dalePassword);
    const dale = await findUserByUsername(harness.database.db, "dale");
    await updateUser(harness.database.db, dale?.sub as string, { enabled: false });
    const response = await chrome(`Bearer ${daleToken}`);
    expectUnauthorized(response);
    expect(response.json().error).toEqual({
      status: 401,
      code: "unauthorized",
      message: "Your session ended: an administrator changed your account.",
      details: { reason: "account-changed" },
    });
  });

  it("tells the holder of a token whose sign-in an administrator's password reset ended", async () => {
    const adminToken = await harness.tokenFor("ames-admin", ["admin"]);
    const evaPassword = await harness.addUser("eva", ["coordinator"]);
    const { idToken: evaToken } = await harness.signIn("eva", evaPassword);
    const reset = await harness.app.inject({
      method: "POST",
      url: "/api/users/eva/reset-password",
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const response = await chrome(`Bearer ${evaToken}`);
    expectUnauthorized(response);
    expect(response.json().error.details).toEqual({ reason: "account-changed" });
  });

  it("tells the holder of a token from another device that the user signed out everywhere", async () => {
    const fayPassword = await harness.addUser("fay", ["coordinator"]);
    const desk = await harness.signIn("fay", fayPassword);
    const phone = await harness.signIn("fay", fayPassword);
    const signOut = await harness.cognito("GlobalSignOut", { AccessToken: phone.accessToken });
    expect(signOut.statusCode, signOut.body).toBe(200);
    const response = await chrome(`Bearer ${desk.idToken}`);
    expectUnauthorized(response);
    expect(response.json().error).toMatchObject({
      message:
        "Your session ended: your account was signed out everywhere, or its password was changed, on another device.",
      details: { reason: "signed-out-everywhere" },
    });
  });

  it("gives no reason for a sign-in the user ended or a token past its time", async () => {
    const tokens = await harness.signIn("casey", password);
    await harness.cognito("RevokeToken", { ClientId: testClientId, Token: tokens.refreshToken });
    const revoked = await chrome(`Bearer ${tokens.idToken}`);
    expectUnauthorized(revoked);
    expect(revoked.json().error.details).toBeUndefined();
    const claims = decodeClaims(idToken);
    const past = Math.floor(Date.now() / 1000) - 7200;
    const expired = await chrome(
      `Bearer ${await forgeToken(harness.database.db, { ...claims, iat: past, exp: past + 3600 })}`,
    );
    expectUnauthorized(expired);
    expect(expired.json().error.details).toBeUndefined();
  });

  it("ignores a bad token on a public route rather than failing it", async () => {
    const response = await harness.app.inject({
      method: "GET",
      url: "/api/health",
      headers: { authorization: "Bearer junk" },
    });
    expect(response.statusCode).toBe(200);
  });
});
