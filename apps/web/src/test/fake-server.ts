import type { MenuEntry, PublicConfig, User } from "@vigil/contract";
import { vi } from "vitest";

/**
 * The network boundary for browser-side tests: `fetch` answers like Vigil's server (envelopes with `enoch`).
 * Everything above it — Amplify's token store, the API client, TanStack Query, the router — is the real code.
 */
export const testConfig: PublicConfig = {
  identity: {
    userPoolId: "local-1_vigiltest",
    userPoolClientId: "vigil-web-test",
    // As the server publishes it: a path, called on the page's own origin.
    userPoolEndpoint: "/cognito",
    loginWith: "username",
  },
  passwordPolicy: {
    minLength: 12,
    requireLowercase: false,
    requireUppercase: false,
    requireNumbers: false,
    requireSpecialCharacters: false,
  },
  mfa: "OPTIONAL",
  totpIssuer: "AWSCognito",
  federation: null,
};

export type Handler = (request: {
  method: string;
  url: URL;
  headers: Headers;
  text: () => Promise<string>;
}) => Response | Promise<Response>;

export function envelope(data: unknown, init: { status?: number; enoch?: string } = {}): Response {
  return Response.json({ enoch: init.enoch ?? "release-1", data }, { status: init.status ?? 200 });
}

export function errorEnvelope(status: number, code: string, message: string, enoch = "release-1"): Response {
  return Response.json({ enoch, error: { status, code, message } }, { status });
}

/** Installs a fetch that routes `METHOD /path` to handlers; anything unrouted answers 404 and is recorded. */
export function installFetch(routes: Record<string, Handler>) {
  const calls: { method: string; path: string; authorization: string | null }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(
      new URL(String(input instanceof Request ? input.url : input), "http://localhost:3000"),
      init,
    );
    const url = new URL(request.url);
    const method = request.method.toUpperCase();
    calls.push({ method, path: `${url.pathname}${url.search}`, authorization: request.headers.get("authorization") });
    const handler = routes[`${method} ${url.pathname}`];
    if (!handler) return errorEnvelope(404, "not_found", `No test route for ${method} ${url.pathname}`);
    return handler({ method, url, headers: request.headers, text: () => request.text() });
  });
  vi.stubGlobal("fetch", fetchMock);
  return { fetchMock, calls };
}

function base64url(value: unknown): string {
  return btoa(JSON.stringify(value)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
}

export function fakeJwt(payload: Record<string, unknown>): string {
  return `${base64url({ alg: "ES256", typ: "JWT" })}.${base64url(payload)}.c2lnbmF0dXJl`;
}

/**
 * Puts tokens where Amplify keeps them after a sign-in (localStorage, Cognito key layout), which is exactly the
 * state a reload finds. Amplify decodes but does not verify tokens in the browser; the server does.
 */
export function storeSignedInTokens(username: string, groups: string[] = [], expiresInSeconds = 3600): string {
  const now = Math.floor(Date.now() / 1000);
  const clientId = testConfig.identity.userPoolClientId;
  const common = {
    sub: "7d0f4f3e-2b7a-4a51-9a55-3f1f1b0c2a10",
    iss: "http://localhost:3000",
    iat: now,
    exp: now + expiresInSeconds,
    auth_time: now,
    "cognito:groups": groups,
  };
  const accessToken = fakeJwt({ ...common, username, token_use: "access", client_id: clientId, jti: "a1" });
  const idToken = fakeJwt({ ...common, "cognito:username": username, token_use: "id", aud: clientId, name: username });
  const prefix = `CognitoIdentityServiceProvider.${clientId}`;
  window.localStorage.setItem(`${prefix}.LastAuthUser`, username);
  window.localStorage.setItem(`${prefix}.${username}.accessToken`, accessToken);
  window.localStorage.setItem(`${prefix}.${username}.idToken`, idToken);
  window.localStorage.setItem(`${prefix}.${username}.refreshToken`, "opaque-refresh-token");
  window.localStorage.setItem(`${prefix}.${username}.clockDrift`, "0");
  return idToken;
}

export function testUser(overrides: Partial<User> = {}): User {
  return {
    username: "alice",
    sub: "7d0f4f3e-2b7a-4a51-9a55-3f1f1b0c2a10",
    email: "alice@example.org",
    emailVerified: true,
    phoneNumber: null,
    phoneNumberVerified: false,
    name: "Alice Smith",
    isEnabled: true,
    status: "CONFIRMED",
    groups: ["coordinator"],
    mfa: { sms: false, totp: false, preferred: null },
    professional: { familyName: null, givenNames: [], npi: null, credentials: null, boardCertifications: [] },
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    ...overrides,
  };
}

export const coordinatorMenu: MenuEntry[] = [
  { title: "Home", url: "/", icon: "home" },
  {
    title: "Continuous monitoring",
    url: "/continuous-monitoring/cases/monitoring",
    icon: "monitor_heart",
    children: [
      { title: "Clients", url: "/continuous-monitoring/clients", icon: "business" },
      { title: "Monitoring", url: "/continuous-monitoring/cases/monitoring", icon: "monitor_heart" },
    ],
  },
  { title: "Reporting", url: "/reporting/continuous-monitoring", icon: "insights" },
  { title: "Unauthorized", url: "/unauthorized" },
];
