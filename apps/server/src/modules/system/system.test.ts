import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

let harness: TestApp;
const buildInfo = { buildId: "b-123", builtAt: "2026-11-01T10:00:00.000Z" };

beforeAll(async () => {
  harness = await createTestApp(
    { RELEASE_ID: "" },
    {
      webFiles: {
        "index.html": "<!doctype html><title>Vigil</title><div id=root></div>",
        "build.json": JSON.stringify(buildInfo),
        "assets/app-1a2b.js": "console.log('app')",
      },
    },
  );
});
afterAll(() => harness.close());

describe("system routes", () => {
  it("does a database round trip for /api/health", async () => {
    const body = (await harness.app.inject({ method: "GET", url: "/api/health" })).json();
    expect(body.data.status).toBe("ok");
    expect(body.data.database.engine).toBe(harness.database.engine);
    expect(body.data.database.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it("uses the web build's id as enoch when no release id is configured", async () => {
    expect((await harness.app.inject({ method: "GET", url: "/api/health" })).json().enoch).toBe("b-123");
  });

  it("serves /build.json uncached", async () => {
    const response = await harness.app.inject({ method: "GET", url: "/build.json" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(buildInfo);
    expect(response.headers["cache-control"]).toBe("no-cache");
  });

  it("serves the web app at / with a strict Content-Security-Policy", async () => {
    const response = await harness.app.inject({ method: "GET", url: "/" });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("<div id=root>");
    const csp = String(response.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).toContain("frame-ancestors 'none'");
    // The identity endpoint is on the page's own origin: fetch may go nowhere else.
    expect(csp).toContain("connect-src 'self';");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("caches hashed assets for a year", async () => {
    const response = await harness.app.inject({ method: "GET", url: "/assets/app-1a2b.js" });
    expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  it("answers unknown non-API paths with a 404", async () => {
    expect((await harness.app.inject({ method: "GET", url: "/nothing-here.txt" })).statusCode).toBe(404);
  });

  it("publishes the identity endpoint as a path, so the page calls whichever address it was loaded from", async () => {
    const body = (await harness.app.inject({ method: "GET", url: "/api/config" })).json();
    expect(body.data).toEqual({
      identity: {
        userPoolId: "local-1_vigil",
        userPoolClientId: "vigilweb0000000000000000000",
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
      // Without OIDC_ISSUER there is no federated sign-in (identity/federation/hosted-ui.test.ts has the rest).
      federation: null,
    });
  });

  it("publishes an identity endpoint elsewhere when configured, and lets the page's fetch reach exactly its origin", async () => {
    const elsewhere = await createTestApp({ USER_POOL_ENDPOINT: "https://cognito-idp.eu-west-1.amazonaws.com/" });
    try {
      const config = (await elsewhere.app.inject({ method: "GET", url: "/api/config" })).json();
      expect(config.data.identity.userPoolEndpoint).toBe("https://cognito-idp.eu-west-1.amazonaws.com/");
      const csp = String(
        (await elsewhere.app.inject({ method: "GET", url: "/api/health" })).headers["content-security-policy"],
      );
      expect(csp).toContain("connect-src 'self' https://cognito-idp.eu-west-1.amazonaws.com;");
    } finally {
      await elsewhere.close();
    }
  });

  it("generates the OpenAPI document from the contract's route table", async () => {
    const document = (await harness.app.inject({ method: "GET", url: "/api/openapi.json" })).json();
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(["/api/health", "/api/chrome", "/api/chrome/breadcrumbs", "/api/users/{username}"]),
    );
    const breadcrumbs = document.paths["/api/chrome/breadcrumbs"].get;
    expect(breadcrumbs.parameters[0]).toMatchObject({ name: "path", in: "query", required: true });
    expect(breadcrumbs.security).toEqual([{ idToken: [] }]);
    expect(breadcrumbs.responses["401"] ?? breadcrumbs.responses["4XX"]).toBeDefined();
  });

  it("serves the API docs page", async () => {
    const response = await harness.app.inject({ method: "GET", url: "/api/docs" });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("swagger");
    // Swagger UI's own policy, set as the page is sent, wins over the app's one set as the request arrived.
    expect(response.headers["content-security-policy"]).toMatch(/^default-src 'self'; base-uri 'self'; img-src/);
    expect(response.headers["x-frame-options"]).toBe("SAMEORIGIN");
  });
});
