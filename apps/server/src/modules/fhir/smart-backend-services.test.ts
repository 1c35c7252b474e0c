import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Client } from "@vigil/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { smartClients } from "../../db/schema.js";
import { type Caller, callerFor } from "../../testing/kits/caller-kit.js";
import { auditRows, sampleClient } from "../../testing/kits/clients-kit.js";
import {
  type HospitalKey,
  hospitalKey,
  privateJwkOf,
  registerHospitalSystem,
  requestToken,
  signAssertion,
  systemToken,
  tokenFields,
  tokenUrlOf,
} from "../../testing/kits/smart-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { authenticateSmartToken } from "./smart-token-service.js";

/**
 * SMART Backend Services end to end through the app: an administrator registers a hospital's system, the hospital
 * (played by `jose` keys made here) signs assertions, the token endpoint issues or refuses, and the FHIR endpoint
 * answers the token.
 */
let harness: TestApp;
let admin: Caller;
let coordinator: Caller;
let technologist: Caller;
let client: Client;
let rsaKey: HospitalKey;
let ecKey: HospitalKey;
let tokenUrl: string;

beforeAll(async () => {
  harness = await createTestApp();
  admin = await callerFor(harness, "smart-admin", ["admin"]);
  coordinator = await callerFor(harness, "smart-coordinator", ["coordinator"]);
  technologist = await callerFor(harness, "smart-technologist", ["technologist"]);
  client = (await coordinator("POST", "/clients", { body: sampleClient() })).json().data;
  [rsaKey, ecKey] = await Promise.all([hospitalKey("RS384"), hospitalKey("ES384")]);
  tokenUrl = tokenUrlOf(harness.config.publicUrl);
});
afterAll(() => harness.close());

async function newClient(): Promise<Client> {
  return (await coordinator("POST", "/clients", { body: sampleClient() })).json().data;
}

describe("registering a hospital system", () => {
  it("lets an administrator register one with a pasted JWKS, and Vigil makes the client id", async () => {
    const system = await registerHospitalSystem(admin, client.id, { keys: [rsaKey, ecKey] });
    expect(system.systemClientId).toMatch(/^vigil-[0-9a-f-]{36}$/);
    expect(system.version).toBe(1);
    expect(system.jwks?.keys).toHaveLength(2);
    const listed = await coordinator("GET", `/clients/${client.id}/fhir-systems`);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data.items.map((item: { id: string }) => item.id)).toContain(system.id);
    const [audit] = await auditRows(harness, "smart-client.register", client.id);
    expect(audit?.details).toMatchObject({ systemClientId: system.systemClientId, enabled: true });
    // The audit keeps which keys, never their material.
    expect(JSON.stringify(audit?.details)).not.toContain(String(rsaKey.publicJwk.n));
  });

  it("keeps registration to administrators and reading to those who read interfaces", async () => {
    const body = { name: "EHR", jwksUrl: null, jwks: { keys: [rsaKey.publicJwk] }, scopes: ["system/Patient.r"] };
    expect((await coordinator("POST", `/clients/${client.id}/fhir-systems`, { body })).statusCode).toBe(403);
    expect((await technologist("GET", `/clients/${client.id}/fhir-systems`)).statusCode).toBe(403);
  });

  it("refuses a JWKS holding a private key, naming the member", async () => {
    const response = await admin("POST", `/clients/${client.id}/fhir-systems`, {
      body: { name: "EHR", jwksUrl: null, jwks: { keys: [await privateJwkOf(rsaKey)] }, scopes: ["system/Patient.r"] },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain("body.jwks.keys.0.d");
    expect(response.json().error.message).toContain("private key");
  });

  it("refuses keys that are not RS384 or ES384, and needs exactly one key source", async () => {
    const p256 = { kty: "EC", crv: "P-256", x: "abc", y: "def" };
    const cases = [
      { jwksUrl: null, jwks: { keys: [p256] } },
      { jwksUrl: null, jwks: { keys: [{ ...rsaKey.publicJwk, alg: "RS256" }] } },
      { jwksUrl: null, jwks: { keys: [{ kty: "oct", k: "c2VjcmV0" }] } },
      { jwksUrl: null, jwks: null },
      { jwks: { keys: [rsaKey.publicJwk] }, jwksUrl: "https://ehr.example.org/jwks" },
      { jwksUrl: "http://ehr.example.org/jwks", jwks: null },
    ];
    for (const keys of cases) {
      const response = await admin("POST", `/clients/${client.id}/fhir-systems`, {
        body: { name: "EHR", scopes: ["system/Patient.r"], ...keys },
      });
      expect(response.statusCode, JSON.stringify(keys)).toBe(400);
    }
    const weak = await admin("POST", `/clients/${client.id}/fhir-systems`, {
      body: {
        name: "EHR",
        scopes: ["system/Patient.r"],
        jwksUrl: null,
        jwks: { keys: [{ kty: "RSA", n: "AQAB", e: "AQAB" }] },
      },
    });
    expect(weak.statusCode).toBe(400);
  });

  it("refuses scopes that are not SMART v2 system scopes", async () => {
    for (const scope of ["patient/Patient.rs", "system/Patient.read", "system/Patient.sr", "system/Patient."]) {
      const response = await admin("POST", `/clients/${client.id}/fhir-systems`, {
        body: { name: "EHR", jwksUrl: null, jwks: { keys: [rsaKey.publicJwk] }, scopes: [scope] },
      });
      expect(response.statusCode, scope).toBe(400);
    }
  });

  it("gives one client id to one client only", async () => {
    const systemClientId = `ehr-${randomUUID()}`;
    await registerHospitalSystem(admin, client.id, { keys: [rsaKey], systemClientId });
    const other = await newClient();
    const response = await admin("POST", `/clients/${other.id}/fhir-systems`, {
      body: {
        name: "EHR",
        systemClientId,
        jwksUrl: null,
        jwks: { keys: [rsaKey.publicJwk] },
        scopes: ["system/Patient.r"],
      },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toContain(client.name);
  });

  it("refuses a change based on a stale version", async () => {
    const system = await registerHospitalSystem(admin, client.id, { keys: [rsaKey] });
    const change = { name: "Renamed", jwksUrl: null, jwks: system.jwks, scopes: system.scopes, enabled: true };
    const first = await admin("PUT", `/clients/${client.id}/fhir-systems/${system.id}`, {
      body: { ...change, baseVersion: 1 },
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data.version).toBe(2);
    const stale = await admin("PUT", `/clients/${client.id}/fhir-systems/${system.id}`, {
      body: { ...change, baseVersion: 1 },
    });
    expect(stale.statusCode).toBe(409);
    const other = await newClient();
    const elsewhere = await admin("PUT", `/clients/${other.id}/fhir-systems/${system.id}`, {
      body: { ...change, baseVersion: 2 },
    });
    expect(elsewhere.statusCode).toBe(404);
  });
});

describe("the token endpoint", () => {
  let systemClientId: string;
  beforeAll(async () => {
    const system = await registerHospitalSystem(admin, client.id, {
      keys: [rsaKey, ecKey],
      scopes: ["system/DiagnosticReport.rs", "system/Patient.rs", "system/Task.cru"],
    });
    systemClientId = system.systemClientId;
  });

  it("issues a 5-minute token with granted ∩ requested scopes, for RS384 and ES384 assertions", async () => {
    for (const key of [rsaKey, ecKey]) {
      const response = await requestToken(
        harness.app,
        tokenFields(
          await signAssertion(key, systemClientId, tokenUrl),
          "system/DiagnosticReport.rs system/Task.crud system/Observation.rs",
        ),
      );
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers["cache-control"]).toBe("no-store");
      const body = response.json();
      expect(body).toMatchObject({ token_type: "bearer", expires_in: 300 });
      expect(body.scope.split(" ").sort()).toEqual(["system/DiagnosticReport.rs", "system/Task.cru"]);
      expect(body.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
    const issued = await auditRows(harness, "smart-token.issue", client.id);
    expect(issued.length).toBeGreaterThanOrEqual(2);
    expect(issued[0]?.details).toMatchObject({ systemClientId });
  });

  it("answers the token on the FHIR endpoint: the CapabilityStatement, and an OperationOutcome for what is not there", async () => {
    const token = await systemToken(harness.app, harness.config.publicUrl, rsaKey, systemClientId, "system/Patient.rs");
    const headers = { authorization: `Bearer ${token}` };
    const metadata = await harness.app.inject({ method: "GET", url: "/fhir/R4/metadata", headers });
    expect(metadata.statusCode).toBe(200);
    expect(metadata.headers["content-type"]).toBe("application/fhir+json; charset=utf-8");
    expect(metadata.json().resourceType).toBe("CapabilityStatement");
    const missing = await harness.app.inject({ method: "GET", url: "/fhir/R4/NoSuchType/1", headers });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers["content-type"]).toBe("application/fhir+json; charset=utf-8");
    expect(missing.headers["cache-control"]).toBe("no-store");
    expect(missing.json()).toMatchObject({ resourceType: "OperationOutcome", issue: [{ code: "not-supported" }] });
  });

  type Refusal = { label: string; fields: () => Promise<Record<string, string>>; status: number; error: string };
  const scope = "system/Patient.rs";
  const refusals: Refusal[] = [
    {
      label: "a forged signature (another key under the registered kid)",
      fields: async () =>
        tokenFields(await signAssertion(rsaKey, systemClientId, tokenUrl, { signWith: await hospitalKey() }), scope),
      status: 401,
      error: "invalid_client",
    },
    {
      label: "an expired assertion",
      fields: async () => tokenFields(await signAssertion(rsaKey, systemClientId, tokenUrl, { exp: -120 }), scope),
      status: 401,
      error: "invalid_client",
    },
    {
      label: "exp more than five minutes ahead",
      fields: async () => tokenFields(await signAssertion(rsaKey, systemClientId, tokenUrl, { exp: 900 }), scope),
      status: 401,
      error: "invalid_client",
    },
    {
      label: "a wrong audience",
      fields: async () =>
        tokenFields(await signAssertion(rsaKey, systemClientId, "https://elsewhere.example.org/token"), scope),
      status: 401,
      error: "invalid_client",
    },
    {
      label: "an unknown client",
      fields: async () => tokenFields(await signAssertion(rsaKey, "no-such-client", tokenUrl), scope),
      status: 401,
      error: "invalid_client",
    },
    {
      label: "sub other than iss",
      fields: async () =>
        tokenFields(await signAssertion(rsaKey, systemClientId, tokenUrl, { sub: "someone-else" }), scope),
      status: 401,
      error: "invalid_client",
    },
    {
      label: "a scope not granted",
      fields: async () => tokenFields(await signAssertion(rsaKey, systemClientId, tokenUrl), "system/ServiceRequest.c"),
      status: 400,
      error: "invalid_scope",
    },
    {
      label: "a scope that is not a SMART v2 system scope",
      fields: async () => tokenFields(await signAssertion(rsaKey, systemClientId, tokenUrl), "patient/*.read"),
      status: 400,
      error: "invalid_scope",
    },
    {
      label: "another grant type",
      fields: async () => ({
        ...tokenFields(await signAssertion(rsaKey, systemClientId, tokenUrl), scope),
        grant_type: "authorization_code",
      }),
      status: 400,
      error: "unsupported_grant_type",
    },
    {
      label: "no assertion",
      fields: async () => ({ grant_type: "client_credentials", scope }),
      status: 400,
      error: "invalid_request",
    },
    {
      label: "an assertion that is not a JWT",
      fields: async () => tokenFields("not.a.jwt", scope),
      status: 401,
      error: "invalid_client",
    },
  ];
  for (const refusal of refusals) {
    it(`refuses ${refusal.label}`, async () => {
      const response = await requestToken(harness.app, await refusal.fields());
      expect(response.statusCode, response.body).toBe(refusal.status);
      expect(response.json().error).toBe(refusal.error);
      expect(response.json().error_description).toEqual(expect.any(String));
      expect(response.headers["cache-control"]).toBe("no-store");
    });
  }

  it("refuses an assertion replayed (its jti used before), once it has given one token", async () => {
    const fields = tokenFields(await signAssertion(rsaKey, systemClientId, tokenUrl), scope);
    expect((await requestToken(harness.app, fields)).statusCode).toBe(200);
    const replay = await requestToken(harness.app, fields);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toMatchObject({ error: "invalid_client" });
    expect(replay.json().error_description).toContain("jti");
  });

  it("refuses a JSON body with an OAuth error, never a 500", async () => {
    const response = await harness.app.inject({
      method: "POST",
      url: "/fhir/auth/token",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ grant_type: "client_credentials" }),
    });
    expect(response.statusCode).toBeLessThan(500);
    expect(response.json().error).toMatch(/^invalid_request|unsupported_grant_type$/);
  });

  it("audits every refusal with its reason and no assertion", async () => {
    const refused = await auditRows(harness, "smart-token.refuse");
    const reasons = refused.map((row) => String((row.details as { reason?: string }).reason));
    expect(reasons.some((reason) => reason.includes("signature"))).toBe(true);
    expect(reasons.some((reason) => reason.includes("expired"))).toBe(true);
    expect(reasons.some((reason) => reason.includes("jti"))).toBe(true);
    expect(JSON.stringify(refused)).not.toMatch(/eyJ[A-Za-z0-9_-]{20,}\./);
  });

  it("ends a system's tokens when its registration changes or is disabled", async () => {
    const system = await registerHospitalSystem(admin, client.id, { keys: [rsaKey] });
    const token = await systemToken(harness.app, harness.config.publicUrl, rsaKey, system.systemClientId, scope);
    expect(await authenticateSmartToken(harness.database.db, token)).toMatchObject({
      clientId: client.id,
      systemClientId: system.systemClientId,
      scopes: ["system/Patient.rs"],
    });
    const disabled = await admin("PUT", `/clients/${client.id}/fhir-systems/${system.id}`, {
      body: {
        name: system.name,
        jwksUrl: null,
        jwks: system.jwks,
        scopes: system.scopes,
        enabled: false,
        baseVersion: 1,
      },
    });
    expect(disabled.statusCode).toBe(200);
    expect(await authenticateSmartToken(harness.database.db, token)).toBeUndefined();
    const again = await requestToken(
      harness.app,
      tokenFields(await signAssertion(rsaKey, system.systemClientId, tokenUrl), scope),
    );
    expect(again.json()).toMatchObject({ error: "invalid_client" });
  });
});

describe("keys published at a JWKS URL", () => {
  let server: Server;
  let served: unknown;
  let fetches = 0;
  let url: string;
  beforeAll(async () => {
    server = createServer((_request, response) => {
      fetches += 1;
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(served));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("fetches the keys once, keeps them in the database, and follows the hospital's key rotation", async () => {
    const first = await hospitalKey("ES384");
    served = { keys: [first.publicJwk] };
    const system = await registerHospitalSystem(admin, client.id, { jwksUrl: url, jwks: null });
    const scope = "system/Patient.rs";
    await systemToken(harness.app, harness.config.publicUrl, first, system.systemClientId, scope);
    await systemToken(harness.app, harness.config.publicUrl, first, system.systemClientId, scope);
    expect(fetches).toBe(1);
    const [row] = await harness.database.db.select().from(smartClients).where(eq(smartClients.id, system.id));
    expect(row?.fetchedJwks).toEqual({ keys: [first.publicJwk] });

    // The hospital publishes a new key; an assertion naming it makes Vigil look again (the copy is over a minute old).
    const second = await hospitalKey("RS384");
    served = { keys: [first.publicJwk, second.publicJwk] };
    await harness.database.db
      .update(smartClients)
      .set({ fetchedAt: new Date(Date.now() - 120_000) })
      .where(eq(smartClients.id, system.id));
    await systemToken(harness.app, harness.config.publicUrl, second, system.systemClientId, scope);
    expect(fetches).toBe(2);
  });

  it("refuses assertions when the URL serves a private key", async () => {
    const key = await hospitalKey("RS384");
    served = { keys: [await privateJwkOf(key)] };
    const system = await registerHospitalSystem(admin, client.id, { jwksUrl: url, jwks: null });
    const response = await requestToken(
      harness.app,
      tokenFields(await signAssertion(key, system.systemClientId, tokenUrl), "system/Patient.rs"),
    );
    expect(response.statusCode).toBe(401);
    expect(response.json().error).toBe("invalid_client");
    expect(response.json().error_description).toContain("private key");
  });
});
