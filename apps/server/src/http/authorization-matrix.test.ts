import { type AccessGroup, accessGroups, fhirRoutes, isAllowed, type RouteDefinition, routes } from "@vigil/contract";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { infrastructureRoutes } from "../app.js";
import { injectStreamHead } from "../events/event-stream-reader.js";
import { findUserByUsername, updateUser } from "../identity/users-repository.js";
import { decodeClaims, forgeToken } from "../testing/forge-token.js";
import type { JsonSchema } from "../testing/fuzz/json-schema-arbitrary.js";
import { createTestApp, type TestApp } from "../testing/test-app.js";

/**
 * Walks the whole route table: every registered route is either in the contract (with a declared access) or a
 * listed infrastructure route; and every contract route is called anonymously, with an expired token, with the
 * token of a user who has since been disabled, as a user without groups and as each group. Each caller gets
 * exactly what the declared access says; a permitted caller may meet a 4xx about the sample input (400, 404,
 * 409, 428…) but never a 5xx. Sample params, query and body are generated from the route's own schemas, so a new
 * route is covered as soon as it is in the table.
 */
let harness: TestApp;
const tokens = new Map<string, string>();
const registered: string[] = [];

/** The user that `:username` routes act on: no groups, so nothing the matrix does to it matters. */
const targetUsername = "matrix-target";

/** Metrics on, so `GET /metrics` answers here as in production (plugins/metrics.ts). */
const metricsToken = "matrix-metrics-token-000000000000000000000000";

beforeAll(async () => {
  harness = await createTestApp({ METRICS_TOKEN: metricsToken });
  for (const group of accessGroups) tokens.set(group, await harness.tokenFor(`matrix-${group}`, [group]));
  tokens.set("none", await harness.tokenFor("matrix-none", []));
  await harness.addUser(targetUsername, []);

  // An admin's token, correctly signed but expired an hour ago: only the expiry is wrong with it.
  const claims = decodeClaims(await harness.tokenFor("matrix-expired", ["admin"]));
  const now = Math.floor(Date.now() / 1000);
  tokens.set("expired", await forgeToken(harness.database.db, { ...claims, iat: now - 7200, exp: now - 3600 }));

  // An admin who signed in and was then disabled: the token is unexpired and well signed, the user is not.
  tokens.set("disabled", await harness.tokenFor("matrix-disabled", ["admin"]));
  const disabled = await findUserByUsername(harness.database.db, "matrix-disabled");
  await updateUser(harness.database.db, disabled?.sub as string, { enabled: false });

  registered.push(...harness.app.registeredRoutes);
});
afterAll(() => harness.close());

const table = Object.entries(routes) as [string, RouteDefinition][];

/**
 * Values for fields a JSON Schema cannot describe well enough to generate (refinements, names that must exist).
 * Keyed by property name; the "samples pass validation" test says when a new field needs one.
 */
const knownValues: Record<string, unknown> = {
  username: targetUsername,
  path: "/",
  timezone: "UTC",
  month: "2026-01",
  // Billing: a rate is a positive amount; the billable-hours report covers real calendar days, in order.
  hourlyRate: "125.00",
  // An invoice's tax: a percentage with at most a few decimals.
  taxRatePercent: "8.25",
  phoneNumber: "+15555550100",
  // A user's NPI: ten digits whose last is the Luhn check digit (CMS's own example).
  npi: "1234567893",
  from: "2026-01-01",
  to: "2026-01-31",
  // A hospital system's registration: SMART v2 scopes, and one key source of the two.
  scopes: ["system/Patient.r"],
  jwksUrl: "https://ehr.example.org/jwks.json",
  jwks: null,
  // Payments: a positive amount of money, days of the calendar.
  amount: "100.00",
  receivedOn: "2026-01-01",
  reversedOn: "2026-01-01",
  refundedOn: "2026-01-01",
  writtenOffOn: "2026-01-01",
  // FHIR push: the hospital's FHIR base, its token endpoint found there.
  baseUrl: "https://ehr.example.org/fhir",
  tokenUrl: null,
};

const uuidSample = "00000000-0000-4000-8000-000000000000";

/** The smallest value the schema accepts: required properties only, the first enum value, formats filled in. */
function sampleOf(schema: JsonSchema, name?: string): unknown {
  // An enum samples itself (a stage named `to` is not the report's `to` date).
  if (name && name in knownValues && !schema.enum) return knownValues[name];
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    const first = alternatives.find((option) => option.type !== "null") ?? alternatives[0];
    return first ? sampleOf(first, name) : null;
  }
  if (schema.allOf?.[0]) return sampleOf(schema.allOf[0], name);
  const type = Array.isArray(schema.type) ? schema.type.find((candidate) => candidate !== "null") : schema.type;
  switch (type) {
    case "object":
      return Object.fromEntries(
        (schema.required ?? []).map((key) => [key, sampleOf(schema.properties?.[key] ?? {}, key)]),
      );
    case "array":
      return Array.from({ length: schema.minItems ?? 0 }, () => sampleOf(schema.items ?? {}));
    case "boolean":
      return true;
    case "integer":
    case "number":
      return schema.minimum ?? (schema.exclusiveMinimum === undefined ? 1 : schema.exclusiveMinimum + 1);
    case "null":
      return null;
    default:
      return sampleString(schema);
  }
}

function sampleString(schema: JsonSchema): string {
  switch (schema.format) {
    case "uuid":
      return uuidSample;
    case "email":
      return "matrix@example.org";
    case "date-time":
      return "2026-01-01T00:00:00Z";
    case "date":
      return "2026-01-01";
    case "uri":
    case "url":
      return "https://example.org/";
  }
  return "sample".padEnd(schema.minLength ?? 0, "x");
}

type Sample = { params?: unknown; querystring?: unknown; body?: unknown };

function sampleFor(definition: RouteDefinition): Sample {
  const of = (schema: z.ZodType | undefined) =>
    schema ? sampleOf(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema) : undefined;
  return { params: of(definition.params), querystring: of(definition.querystring), body: of(definition.body) };
}

function urlOf(definition: RouteDefinition, sample: Sample): string {
  const params = (sample.params ?? {}) as Record<string, unknown>;
  const path = definition.path.replace(/:(\w+)/g, (_all, name: string) => encodeURIComponent(String(params[name])));
  const query = new URLSearchParams(
    Object.entries((sample.querystring ?? {}) as Record<string, unknown>).map(([key, value]): [string, string] => [
      key,
      String(value),
    ]),
  ).toString();
  return query ? `${path}?${query}` : path;
}

function call(definition: RouteDefinition, token?: string): Promise<LightMyRequestResponse> {
  const sample = sampleFor(definition);
  const request = {
    method: definition.method,
    url: urlOf(definition, sample),
    headers: token ? { authorization: `Bearer ${token}` } : ({} as Record<string, string>),
    ...(definition.body ? { payload: sample.body as Record<string, unknown> } : {}),
  };
  // An event stream stays open: its head (status, headers, first frame) is the answer judged here.
  if (definition.responseKind === "event-stream") {
    return injectStreamHead(harness.app, request) as Promise<unknown> as Promise<LightMyRequestResponse>;
  }
  return harness.app.inject(request);
}

function expectNoServerError(response: LightMyRequestResponse, label: string): void {
  expect(response.statusCode, `${label}: ${response.body}`).toBeLessThan(500);
}

/** No answer of the API may be kept by a browser or proxy cache: shared workstations, patient data. */
function expectNoStore(response: LightMyRequestResponse, label: string): void {
  expect(response.headers["cache-control"], `${label} answered ${response.statusCode}`).toBe("no-store");
}

describe("the authorization matrix", () => {
  it("finds routes registered by the router", () => {
    expect(registered.length).toBeGreaterThanOrEqual(table.length);
  });

  it("has every route either in the contract's table or listed as infrastructure", () => {
    const known = new Set<string>([
      ...table.map(([, definition]) => `${definition.method} ${definition.path}`),
      // The FHIR endpoint's rows take a hospital system's token, not a user's: fhir-matrix.test.ts walks them.
      ...Object.values(fhirRoutes).map((definition) => `${definition.method} ${definition.path}`),
      ...infrastructureRoutes,
    ]);
    const unknown = registered.filter((route) => !known.has(route));
    expect(unknown).toEqual([]);
    // And the check can fail: a route outside both lists is reported.
    expect(["GET /api/secret-backdoor"].filter((route) => !known.has(route))).toHaveLength(1);
  });

  it("marks answers no-store where no route answered or the input was refused, and only the API's", async () => {
    const admin = { authorization: `Bearer ${tokens.get("admin")}` };
    const unknown = await harness.app.inject({ method: "GET", url: "/api/no-such-thing", headers: admin });
    expect(unknown.statusCode).toBe(404);
    expectNoStore(unknown, "an unknown /api path");
    const malformed = await harness.app.inject({
      method: "POST",
      url: "/api/continuous-monitoring/cases",
      headers: { ...admin, "content-type": "application/json" },
      payload: '{"clientId":',
    });
    expect(malformed.statusCode).toBe(400);
    expectNoStore(malformed, "malformed JSON");
    // The static web app keeps its own caching rules (hashed assets are immutable).
    const page = await harness.app.inject({ method: "GET", url: "/" });
    expect(page.headers["cache-control"]).not.toBe("no-store");
  });

  it("opens GET /metrics to its own bearer token only, never to a user's, and never cached", async () => {
    const scrape = (authorization?: string) =>
      harness.app.inject({ method: "GET", url: "/metrics", headers: authorization ? { authorization } : {} });
    const refusals = {
      anonymous: await scrape(),
      "a wrong token": await scrape("Bearer not-the-metrics-token"),
      "an administrator's token": await scrape(`Bearer ${tokens.get("admin")}`),
      "a developer's token": await scrape(`Bearer ${tokens.get("developer")}`),
    };
    for (const [who, response] of Object.entries(refusals)) {
      expect(response.statusCode, who).toBe(401);
      expect(response.headers["cache-control"], who).toBe("no-store");
    }
    const scraped = await scrape(`Bearer ${metricsToken}`);
    expect(scraped.statusCode).toBe(200);
    expect(scraped.headers["content-type"]).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(scraped.headers["cache-control"]).toBe("no-store");
  });

  it("declares an access rule for every route of the table", () => {
    for (const [name, definition] of table) {
      expect(definition.access, name).toMatch(/^(public|signed-in|[a-z-]+:[a-z-]+)$/);
    }
  });

  it("generates sample input that passes each route's own validation", () => {
    for (const [name, definition] of table) {
      const sample = sampleFor(definition);
      for (const part of ["params", "querystring", "body"] as const) {
        const schema = definition[part];
        if (!schema) continue;
        const parsed = schema.safeParse(sample[part]);
        expect(parsed.success, `${name} ${part}: ${JSON.stringify(sample[part])} ${parsed.error?.message ?? ""}`).toBe(
          true,
        );
      }
    }
  });

  for (const [name, definition] of table) {
    const label = `${definition.method} ${definition.path}`;
    describe(`${label} (${definition.access})`, () => {
      if (definition.access === "public") {
        it("is open to anonymous callers, and to callers whose token is expired or whose user is disabled", async () => {
          for (const caller of [undefined, "expired", "disabled"]) {
            const response = await call(definition, caller && tokens.get(caller));
            expect(response.statusCode, `${name} as ${caller ?? "anonymous"}`).not.toBe(401);
            expectNoServerError(response, `${name} as ${caller ?? "anonymous"}`);
            expectNoStore(response, `${name} as ${caller ?? "anonymous"}`);
          }
        });
      } else {
        it("refuses anonymous callers with 401", async () => {
          const response = await call(definition);
          expect(response.statusCode, name).toBe(401);
          expectNoStore(response, name);
        });
        it("refuses an expired token with 401", async () => {
          const response = await call(definition, tokens.get("expired"));
          expect(response.statusCode, name).toBe(401);
          expect(response.json().error.code).toBe("unauthorized");
          expectNoStore(response, name);
        });
        it("refuses the token of a user who has been disabled with 401", async () => {
          const response = await call(definition, tokens.get("disabled"));
          expect(response.statusCode, name).toBe(401);
          expectNoStore(response, name);
        });
      }

      for (const caller of [...accessGroups, "none"] as const) {
        const groups: AccessGroup[] = caller === "none" ? [] : [caller];
        const allowed = isAllowed(definition.access, groups);
        it(`${allowed ? "lets" : "refuses"} ${caller === "none" ? "a user without groups" : `a ${caller}`}`, async () => {
          const response = await call(definition, tokens.get(caller));
          const who = `${name} as ${caller}`;
          // Whatever the answer (the data, a refusal, a 4xx about the sample input): never cached.
          expectNoStore(response, who);
          if (allowed) {
            expect(response.statusCode, who).not.toBe(401);
            // The menu call itself refuses users without groups ("Access denied"), by design (PRODUCT.md §1).
            if (!(name === "getChrome" && caller === "none")) expect(response.statusCode, who).not.toBe(403);
            expectNoServerError(response, who);
          } else {
            expect(response.statusCode, who).toBe(403);
            expect(response.json().error.message).toBe("Access denied");
          }
        });
      }
    });
  }
});
