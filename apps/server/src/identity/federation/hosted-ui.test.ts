import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, federatedIdentities } from "../../db/schema.js";
import { decodeClaims } from "../../testing/forge-token.js";
import { createTestApp, type TestApp, testClientId } from "../../testing/test-app.js";
import { findUserByUsername, updateUser } from "../users-repository.js";
import { createPkce, HostedUiBrowser } from "./testing/hosted-ui-browser.js";
import { type LocalProvider, startLocalProvider } from "./testing/local-provider.js";

/**
 * Federated sign-in end to end through the hosted UI: a real OpenID Connect provider (oidc-provider) on a
 * random local port plays Google, and the app's own endpoints are called as Amplify and a browser call them.
 */
const hostedUiOrigin = "https://auth.vigil.test";
const appUrl = "http://vigil.test/";
const noAccount = "No Vigil account uses this Google address. Ask an administrator.";

let harness: TestApp;
let provider: LocalProvider;

beforeAll(async () => {
  provider = await startLocalProvider({
    clientId: "vigil-upstream",
    clientSecret: "upstream-secret-for-tests",
    redirectUris: [`${hostedUiOrigin}/oauth2/idpresponse`],
    accounts: {
      "google-alice": { email: "Alice-Fed@Vigil.TEST", emailVerified: true, name: "Alice Fed" },
      "google-bob": { email: "bob-fed@vigil.test", emailVerified: false, name: "Bob Fed" },
      "google-dora": { email: "dora-fed@vigil.test", emailVerified: true, name: "Dora Fed" },
      "google-erin": { email: "erin-fed@vigil.test", emailVerified: true, name: "Erin Fed" },
      "google-stranger": { email: "stranger@elsewhere.test", emailVerified: true, name: "Stranger" },
    },
  });
  harness = await createTestApp({
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: "vigil-upstream",
    OIDC_CLIENT_SECRET: "upstream-secret-for-tests",
    OIDC_PROVIDER_NAME: "Google",
    HOSTED_UI_DOMAIN: "auth.vigil.test",
  });
  // addUser gives `<username>@vigil.test`: alice-fed matches Alice's Google address whatever its case.
  for (const username of ["alice-fed", "bob-fed", "dora-fed", "erin-fed"]) {
    await harness.addUser(username, ["coordinator"]);
  }
  const dora = await findUserByUsername(harness.database.db, "dora-fed");
  await updateUser(harness.database.db, dora?.sub as string, { enabled: false });
}, 60_000);
afterAll(async () => {
  await harness?.close();
  await provider?.close();
});

function authorizeUrl(pkce: { challenge: string; state: string }, overrides: Record<string, string | null> = {}) {
  const url = new URL("/oauth2/authorize", hostedUiOrigin);
  const parameters: Record<string, string | null> = {
    redirect_uri: appUrl,
    response_type: "code",
    client_id: testClientId,
    identity_provider: "Google",
    scope: "phone email profile openid aws.cognito.signin.user.admin",
    state: pkce.state,
    code_challenge: pkce.challenge,
    code_challenge_method: "S256",
    ...overrides,
  };
  for (const [name, value] of Object.entries(parameters)) if (value !== null) url.searchParams.set(name, value);
  return url.href;
}

function browser() {
  return new HostedUiBrowser(harness.app, hostedUiOrigin, provider.issuer);
}

/** Signs in at the provider as `login` and returns where the app is sent back to, with the PKCE used. */
async function signInAs(login: string) {
  const pkce = createPkce();
  const outcome = await browser().open(authorizeUrl(pkce), { login });
  if (!("url" in outcome)) throw new Error(`Stopped on a page: ${outcome.page.statusCode} ${outcome.page.body}`);
  return { pkce, back: outcome.url };
}

function exchange(fields: Record<string, string>, headers: Record<string, string> = {}) {
  return harness.app.inject({
    method: "POST",
    url: "/oauth2/token",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    payload: new URLSearchParams(fields).toString(),
  });
}

function codeExchange(code: string, verifier: string) {
  return exchange({
    grant_type: "authorization_code",
    code,
    client_id: testClientId,
    redirect_uri: appUrl,
    code_verifier: verifier,
  });
}

function chromeWith(idToken: string) {
  return harness.app.inject({ method: "GET", url: "/api/chrome", headers: { authorization: `Bearer ${idToken}` } });
}

async function auditOf(action: string) {
  return harness.database.db.select().from(auditEvents).where(eq(auditEvents.action, action));
}

describe("federated sign-in through the hosted UI", () => {
  it("signs an existing user in: upstream sign-in, single-use code, PKCE, tokens that work on the API", async () => {
    const { pkce, back } = await signInAs("google-alice");
    expect(`${back.origin}${back.pathname}`).toBe(appUrl);
    expect(back.searchParams.get("state")).toBe(pkce.state);
    const code = back.searchParams.get("code") as string;
    expect(code.length).toBeGreaterThanOrEqual(40);

    const response = await codeExchange(code, pkce.verifier);
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-store");
    const tokens = response.json();
    expect(tokens).toMatchObject({ token_type: "Bearer", expires_in: 3600 });
    expect(Object.keys(tokens).sort()).toEqual([
      "access_token",
      "expires_in",
      "id_token",
      "refresh_token",
      "token_type",
    ]);

    const id = decodeClaims(tokens.id_token);
    const access = decodeClaims(tokens.access_token);
    expect(id).toMatchObject({
      token_use: "id",
      aud: testClientId,
      iss: "http://vigil.test",
      "cognito:username": "alice-fed",
      email: "alice-fed@vigil.test",
    });
    expect(typeof id.origin_jti).toBe("string");
    expect(access.origin_jti).toBe(id.origin_jti);
    expect(access).toMatchObject({ username: "alice-fed", client_id: testClientId });
    expect(String(access.scope).split(" ")).toEqual(
      expect.arrayContaining(["openid", "email", "phone", "profile", "aws.cognito.signin.user.admin"]),
    );

    const chrome = await chromeWith(tokens.id_token);
    expect(chrome.statusCode).toBe(200);

    const [link] = await harness.database.db.select().from(federatedIdentities);
    expect(link).toMatchObject({ issuer: provider.issuer, subject: "google-alice", email: "Alice-Fed@Vigil.TEST" });
    expect((await auditOf("auth.federated-link")).map((event) => event.actorUsername)).toEqual(["alice-fed"]);
    const signIns = await auditOf("auth.federated-sign-in");
    expect(signIns).toContainEqual(
      expect.objectContaining({ outcome: "success", actorUsername: "alice-fed", targetId: id.origin_jti }),
    );
  });

  it("recognises a linked identity by its subject, even after the user's address changed", async () => {
    const alice = await findUserByUsername(harness.database.db, "alice-fed");
    await updateUser(harness.database.db, alice?.sub as string, { email: "alice.new@vigil.test" });
    try {
      const { pkce, back } = await signInAs("google-alice");
      const response = await codeExchange(back.searchParams.get("code") as string, pkce.verifier);
      expect(response.statusCode).toBe(200);
      expect(decodeClaims(response.json().id_token)["cognito:username"]).toBe("alice-fed");
    } finally {
      await updateUser(harness.database.db, alice?.sub as string, { email: "alice-fed@vigil.test" });
    }
  });

  it("refuses a wrong PKCE verifier, and the code is spent", async () => {
    const { pkce, back } = await signInAs("google-alice");
    const code = back.searchParams.get("code") as string;
    const wrong = await codeExchange(code, createPkce().verifier);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({
      error: "invalid_grant",
      error_description: "The code_verifier does not match the code_challenge.",
    });
    expect((await codeExchange(code, pkce.verifier)).json().error).toBe("invalid_grant");
  });

  it("refuses a reused code and ends the sign-in the code produced", async () => {
    const { pkce, back } = await signInAs("google-alice");
    const code = back.searchParams.get("code") as string;
    const first = await codeExchange(code, pkce.verifier);
    expect(first.statusCode).toBe(200);
    const again = await codeExchange(code, pkce.verifier);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      error: "invalid_grant",
      error_description: "The authorization code was already used.",
    });
    expect((await chromeWith(first.json().id_token)).statusCode).toBe(401);
    const refusals = await harness.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "auth.federated-sign-in"), eq(auditEvents.outcome, "failure")));
    expect(refusals.map((event) => (event.details as { reason: string }).reason)).toContain(
      "authorization code reused",
    );
  });

  it("refuses a code sent with another redirect_uri or client", async () => {
    const { pkce, back } = await signInAs("google-alice");
    const code = back.searchParams.get("code") as string;
    const otherClient = await exchange({
      grant_type: "authorization_code",
      code,
      client_id: "someone-else",
      redirect_uri: appUrl,
      code_verifier: pkce.verifier,
    });
    expect(otherClient.statusCode).toBe(401);
    expect(otherClient.json().error).toBe("invalid_client");
    const otherRedirect = await exchange({
      grant_type: "authorization_code",
      code,
      client_id: testClientId,
      redirect_uri: "http://vigil.test/elsewhere",
      code_verifier: pkce.verifier,
    });
    expect(otherRedirect.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("shows a page, without redirecting, for a redirect_uri that is not allowed or an unknown client", async () => {
    const pkce = createPkce();
    const cases: Record<string, string | null>[] = [
      { redirect_uri: "https://evil.example/" },
      { redirect_uri: null },
      { client_id: "nope" },
    ];
    for (const overrides of cases) {
      const response = await harness.app.inject({
        method: "GET",
        url: authorizeUrl(pkce, overrides).slice(hostedUiOrigin.length),
      });
      expect(response.statusCode).toBe(400);
      expect(response.headers.location).toBeUndefined();
      expect(response.headers["content-type"]).toContain("text/html");
      expect(response.body).toMatch(/redirect_uri is not an allowed address|the client is unknown/);
    }
    // A parameter given twice counts as missing (OAuth forbids repeating one), even when both are allowed.
    const repeated = await harness.app.inject({
      method: "GET",
      url: `${authorizeUrl(pkce).slice(hostedUiOrigin.length)}&redirect_uri=${encodeURIComponent(appUrl)}`,
    });
    expect(repeated.statusCode).toBe(400);
  });

  it("sends malformed requests back to the app with an OAuth error", async () => {
    const pkce = createPkce();
    const cases: [Record<string, string | null>, string][] = [
      [{ response_type: "token" }, "unsupported_response_type"],
      [{ code_challenge: null }, "invalid_request"],
      [{ code_challenge_method: "plain" }, "invalid_request"],
      [{ scope: "openid email launch-missiles" }, "invalid_scope"],
      [{ scope: "email profile" }, "invalid_scope"],
      [{ identity_provider: "Facebook" }, "invalid_request"],
    ];
    for (const [overrides, error] of cases) {
      const response = await harness.app.inject({
        method: "GET",
        url: authorizeUrl(pkce, overrides).slice(hostedUiOrigin.length),
      });
      expect(response.statusCode, JSON.stringify(overrides)).toBe(302);
      const back = new URL(String(response.headers.location));
      expect(`${back.origin}${back.pathname}`).toBe(appUrl);
      expect(back.searchParams.get("error"), JSON.stringify(overrides)).toBe(error);
      expect(back.searchParams.get("state")).toBe(pkce.state);
    }
  });

  it("refuses an address the provider has not verified", async () => {
    const { back } = await signInAs("google-bob");
    expect(back.searchParams.get("code")).toBeNull();
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("error_description")).toBe(
      "Google has not verified this address, so it cannot be used to sign in to Vigil.",
    );
  });

  it("refuses an address no Vigil user has, with a message the sign-in screen can show (no sign-up)", async () => {
    const { pkce, back } = await signInAs("google-stranger");
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("error_description")).toBe(noAccount);
    expect(back.searchParams.get("state")).toBe(pkce.state);
    const refusals = await auditOf("auth.federated-sign-in");
    expect(refusals).toContainEqual(
      expect.objectContaining({
        outcome: "failure",
        details: expect.objectContaining({ reason: "no user with this email", email: "stranger@elsewhere.test" }),
      }),
    );
  });

  it("refuses a disabled user, and a linked user once disabled", async () => {
    const { back } = await signInAs("google-dora");
    expect(back.searchParams.get("error_description")).toBe("This Vigil account is disabled. Ask an administrator.");

    const first = await signInAs("google-erin");
    expect(first.back.searchParams.get("code")).not.toBeNull();
    const erin = await findUserByUsername(harness.database.db, "erin-fed");
    await updateUser(harness.database.db, erin?.sub as string, { enabled: false });
    const again = await signInAs("google-erin");
    expect(again.back.searchParams.get("error_description")).toBe(
      "This Vigil account is disabled. Ask an administrator.",
    );
    // A code obtained before the user was disabled is worth nothing after.
    const late = await codeExchange(first.back.searchParams.get("code") as string, first.pkce.verifier);
    expect(late.json().error).toBe("invalid_grant");
  });

  it("reports a sign-in cancelled at the provider", async () => {
    const pkce = createPkce();
    const outcome = await browser().open(authorizeUrl(pkce), { abort: true });
    if (!("url" in outcome)) throw new Error("expected a redirect back to the app");
    expect(outcome.url.searchParams.get("error")).toBe("access_denied");
    expect(outcome.url.searchParams.get("error_description")).toBe("Sign-in with Google was cancelled or refused.");
  });

  it("accepts the provider's answer only once, and only in the browser that started the sign-in", async () => {
    const visitor = browser();
    const start = await harness.app.inject({
      method: "GET",
      url: authorizeUrl(createPkce()).slice(hostedUiOrigin.length),
    });
    expect(String(start.headers["set-cookie"])).toMatch(
      /^vigil_hosted_ui=[\w-]{43}; Path=\/oauth2\/idpresponse;.*HttpOnly; SameSite=Lax/,
    );
    // Another browser (no cookie) completes the upstream sign-in of the one that started: refused.
    const outcome = await visitor.open(String(start.headers.location), { login: "google-alice" });
    if (!("url" in outcome)) throw new Error("expected a redirect back to the app");
    expect(outcome.url.searchParams.get("error_description")).toBe(
      "This sign-in was started in another browser. Sign in again from this one.",
    );
    const replay = await harness.app.inject({ method: "GET", url: "/oauth2/idpresponse?code=x&state=unknown-state" });
    expect(replay.statusCode).toBe(400);
    expect(replay.body).toContain("This sign-in has expired or was already completed.");
  });

  it("refreshes with the refresh token at /oauth2/token and through the Cognito protocol", async () => {
    const { pkce, back } = await signInAs("google-alice");
    const tokens = (await codeExchange(back.searchParams.get("code") as string, pkce.verifier)).json();
    const refreshed = await exchange({
      grant_type: "refresh_token",
      client_id: testClientId,
      refresh_token: tokens.refresh_token,
    });
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.json().refresh_token).toBeUndefined();
    expect(decodeClaims(refreshed.json().access_token).origin_jti).toBe(decodeClaims(tokens.access_token).origin_jti);
    expect(decodeClaims(refreshed.json().access_token).scope).toContain("openid");
    // Amplify refreshes with InitiateAuth REFRESH_TOKEN_AUTH, whatever the way the user signed in.
    const viaCognito = await harness.cognito("InitiateAuth", {
      AuthFlow: "REFRESH_TOKEN_AUTH",
      ClientId: testClientId,
      AuthParameters: { REFRESH_TOKEN: tokens.refresh_token },
    });
    expect(viaCognito.statusCode).toBe(200);
    expect(
      (await exchange({ grant_type: "refresh_token", client_id: testClientId, refresh_token: "nope" })).json().error,
    ).toBe("invalid_grant");
    expect((await exchange({ grant_type: "password", client_id: testClientId })).json().error).toBe(
      "unsupported_grant_type",
    );
  });

  it("answers /oauth2/userInfo for hosted-UI access tokens only (they carry the openid scope)", async () => {
    const { pkce, back } = await signInAs("google-alice");
    const tokens = (await codeExchange(back.searchParams.get("code") as string, pkce.verifier)).json();
    const info = await harness.app.inject({
      method: "GET",
      url: "/oauth2/userInfo",
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(info.statusCode).toBe(200);
    expect(info.json()).toMatchObject({
      username: "alice-fed",
      email: "alice-fed@vigil.test",
      email_verified: "true",
      name: "alice-fed Tester",
    });
    const carolPassword = await harness.addUser("carol-pw", []);
    const passwordTokens = await harness.signIn("carol-pw", carolPassword);
    const refused = await harness.app.inject({
      method: "GET",
      url: "/oauth2/userInfo",
      headers: { authorization: `Bearer ${passwordTokens.accessToken}` },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe("insufficient_scope");
    const anonymous = await harness.app.inject({ method: "GET", url: "/oauth2/userInfo" });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers["www-authenticate"]).toContain("Bearer");
  });

  it("lets the app's origin call the token endpoint with CORS, and no other origin", async () => {
    const allowed = await harness.app.inject({
      method: "OPTIONS",
      url: "/oauth2/token",
      headers: {
        origin: "http://vigil.test",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type,x-amz-user-agent",
      },
    });
    expect(allowed.statusCode).toBe(204);
    expect(allowed.headers["access-control-allow-origin"]).toBe("http://vigil.test");
    expect(String(allowed.headers["access-control-allow-headers"])).toContain("x-amz-user-agent");
    const refused = await harness.app.inject({
      method: "OPTIONS",
      url: "/oauth2/token",
      headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.headers["access-control-allow-origin"]).toBeUndefined();
    // Amplify reads the error of a failed exchange, so errors carry the CORS header too.
    const failed = await exchange(
      {
        grant_type: "authorization_code",
        code: "nope",
        client_id: testClientId,
        redirect_uri: appUrl,
        code_verifier: "x",
      },
      { origin: "http://vigil.test" },
    );
    expect(failed.statusCode).toBe(400);
    expect(failed.headers["access-control-allow-origin"]).toBe("http://vigil.test");
  });

  it("signs out through /logout to an allowed address only", async () => {
    const ok = await harness.app.inject({
      method: "GET",
      url: `/logout?client_id=${testClientId}&logout_uri=${encodeURIComponent(appUrl)}`,
    });
    expect(ok.statusCode).toBe(302);
    expect(ok.headers.location).toBe(appUrl);
    const refused = await harness.app.inject({
      method: "GET",
      url: `/logout?client_id=${testClientId}&logout_uri=${encodeURIComponent("https://evil.example/")}`,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.headers.location).toBeUndefined();
  });

  it("publishes the federation settings in /api/config and allows the hosted UI in the CSP", async () => {
    const config = (await harness.app.inject({ method: "GET", url: "/api/config" })).json().data;
    expect(config.federation).toEqual({
      enabled: true,
      providerName: "Google",
      domain: "auth.vigil.test",
      scopes: ["phone", "email", "profile", "openid", "aws.cognito.signin.user.admin"],
      redirectSignIn: [appUrl],
      redirectSignOut: [appUrl],
    });
    const page = await harness.app.inject({ method: "GET", url: "/api/health" });
    const csp = String(page.headers["content-security-policy"]);
    expect(csp).toContain(`connect-src 'self' ${hostedUiOrigin};`);
    expect(csp).toContain("form-action 'self'");
  });
});

describe("without federation configured", () => {
  let plain: TestApp;
  beforeAll(async () => {
    plain = await createTestApp();
  });
  afterAll(() => plain.close());

  it("has no provider in /api/config and answers the hosted UI with a clear error", async () => {
    expect((await plain.app.inject({ method: "GET", url: "/api/config" })).json().data.federation).toBeNull();
    const authorize = await plain.app.inject({ method: "GET", url: "/oauth2/authorize?client_id=x" });
    expect(authorize.statusCode).toBe(404);
    expect(authorize.body).toContain("Federated sign-in is not enabled on this server");
    const token = await plain.app.inject({
      method: "POST",
      url: "/oauth2/token",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "grant_type=authorization_code&code=x",
    });
    expect(token.statusCode).toBe(404);
    expect(token.json().error_description).toContain("Federated sign-in is not enabled");
    const csp = String(
      (await plain.app.inject({ method: "GET", url: "/api/health" })).headers["content-security-policy"],
    );
    expect(csp).toContain("connect-src 'self';");
  });
});
