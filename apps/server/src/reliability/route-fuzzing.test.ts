import { errorEnvelopeSchema, type RouteDefinition, routes, successEnvelope } from "@vigil/contract";
import fc from "fast-check";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { compareBillableFigures } from "../db/billable-figures.js";
import { compareConcurrentPeaks } from "../db/concurrent-peaks.js";
import { injectStreamHead, type StreamHead } from "../events/event-stream-reader.js";
import {
  buildFuzzWorld,
  currentVersion,
  currentVersionOf,
  type FuzzWorld,
  hintsFor,
  realParamSets,
  satisfyRefinements,
} from "../testing/fuzz/fuzz-world.js";
import { arbitraryOf, type Hints, type JsonSchema } from "../testing/fuzz/json-schema-arbitrary.js";
import {
  type FuzzRequest,
  mutate,
  mutationPlan,
  pathsOf,
  valueAt,
  withNode,
} from "../testing/fuzz/request-mutations.js";
import { changedTables, snapshotTables, tablesToWatch } from "../testing/fuzz/table-snapshot.js";
import { collectionOf, sampleCaseNote } from "../testing/kits/records-kit.js";
import { createTestApp, type TestApp, testClientId } from "../testing/test-app.js";

/**
 * Every route of the contract's table, driven from its own schemas with generated requests: valid ones (built from
 * `z.toJSONSchema` of the params, query and body, aimed at things that exist) and mutations of them (fields dropped
 * or of the wrong type, huge and hostile strings, edge numbers, malformed ids, bodies and If-Match headers). Sent as
 * an administrator (so access never stops them early) and sometimes as a signed-in user without groups.
 *
 * Whatever is sent: never a 5xx; every 4xx is the error envelope with its status; every 2xx has the route's success
 * status and validates against the route's response schema in the success envelope; a user without groups gets 403
 * from every permission-guarded route; and a write that is refused leaves every table (but the audit log, which
 * records refusals) exactly as it was: same rows, same contents.
 *
 * Reproducible: the seed is printed; `FUZZ_SEED` and `FUZZ_RUNS` (per route) override the defaults.
 */
const seed = Number(process.env.FUZZ_SEED ?? 20_260_409);
const runsPerRoute = Number(process.env.FUZZ_RUNS ?? 30);

let harness: TestApp;
let world: FuzzWorld;
let hints: { params: Hints; input: Hints };
let watched: string[];

type Tally = { requests: number; statuses: Map<number, number>; mutated: number };
const tallies = new Map<string, Tally>();
let startedAt = 0;

beforeAll(async () => {
  startedAt = Date.now();
  console.info(`route fuzzing: seed ${seed}, ${runsPerRoute} requests per route (FUZZ_SEED, FUZZ_RUNS)`);
  harness = await createTestApp();
  world = await buildFuzzWorld(harness);
  hints = hintsFor(world);
  watched = await tablesToWatch(harness.database.db);
}, 120_000);

afterAll(async () => {
  let total = 0;
  const classes = new Map<string, number>();
  for (const tally of tallies.values()) {
    total += tally.requests;
    for (const [status, count] of tally.statuses) {
      const group = `${String(status).slice(0, 1)}xx`;
      classes.set(group, (classes.get(group) ?? 0) + count);
    }
  }
  const perRoute = [...tallies.entries()].map(
    ([name, tally]) =>
      `${name} ${[...tally.statuses.entries()]
        .sort(([a], [b]) => a - b)
        .map(([status, count]) => `${status}×${count}`)
        .join(" ")}`,
  );
  console.info(
    [
      `route fuzzing: seed ${seed}, ${total} requests over ${tallies.size} routes in ${((Date.now() - startedAt) / 1000).toFixed(1)} s ` +
        `(${[...classes.entries()].map(([group, count]) => `${group}: ${count}`).join(", ")})`,
      ...perRoute,
    ].join("\n"),
  );
  await harness?.close();
});

/**
 * The order the routes are fuzzed in: writes first (so the reads that follow list and serialise whatever the fuzzer
 * managed to store), then the workflow, then the reads, and what archives or removes last, so the things the other
 * routes aim at still exist while they run.
 */
function phaseOf(name: string, definition: RouteDefinition): number {
  if (definition.method === "DELETE" || name === "restoreClient") return 3;
  if (definition.method === "GET") return 2;
  const workflow = [
    "takeCaseAction",
    "requestTransition",
    "takeTransitionAction",
    "toggleUser",
    "resetUserPassword",
    "resetUserMfa",
    "runIntegrationCheck",
  ];
  return workflow.includes(name) ? 1 : 0;
}

const table = (Object.entries(routes) as [string, RouteDefinition][])
  .map((entry, index) => ({ entry, index }))
  .sort((a, b) => phaseOf(...a.entry) - phaseOf(...b.entry) || a.index - b.index)
  .map(({ entry }) => entry);

const jsonSchemaOf = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;

type Caller = "admin" | "no-groups";

/** Requests built from the route's schemas, aimed mostly at things that exist. */
function validArbitrary(definition: RouteDefinition): fc.Arbitrary<FuzzRequest> {
  const schemaParams = definition.params ? arbitraryOf(jsonSchemaOf(definition.params), hints.params) : fc.constant({});
  const real = realParamSets(definition, world);
  const params =
    real.length > 0
      ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...real) }, { weight: 1, arbitrary: schemaParams })
      : schemaParams;
  const query = definition.querystring
    ? arbitraryOf(jsonSchemaOf(definition.querystring), hints.input)
    : fc.constant(undefined);
  const body = definition.body ? arbitraryOf(jsonSchemaOf(definition.body), hints.input) : fc.constant(undefined);
  const ifMatch = definition.headers
    ? fc.oneof(
        { weight: 4, arbitrary: fc.constant(currentVersion) },
        { weight: 1, arbitrary: fc.constantFrom('"1"', "2", 'W/"1"', '"1", "2"') },
      )
    : fc.constant(undefined);
  const refined = fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) });
  return fc.record({ params, query, body, ifMatch, refined }).map(
    (parts): FuzzRequest => ({
      params: parts.params as Record<string, unknown>,
      query: (parts.refined ? satisfyRefinements(parts.query) : parts.query) as Record<string, unknown> | undefined,
      body: parts.refined ? satisfyRefinements(parts.body) : parts.body,
      ifMatch: parts.ifMatch,
      hasBody: definition.body !== undefined,
      mutation: "none",
    }),
  );
}

/** Half built from the schemas, half mutations of such requests. */
function requestArbitrary(definition: RouteDefinition): fc.Arbitrary<FuzzRequest> {
  const valid = validArbitrary(definition);
  const mutated = fc.tuple(valid, mutationPlan).map(([request, plan]) => mutate(request, plan));
  return fc.oneof(valid, mutated);
}

const caller: fc.Arbitrary<Caller> = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Caller>("admin") },
  { weight: 1, arbitrary: fc.constant<Caller>("no-groups") },
);

function urlOf(definition: RouteDefinition, request: FuzzRequest): string {
  const path = definition.path.replace(/:(\w+)/g, (_all, name: string) => {
    const value = String(request.params[name] ?? "");
    if (request.rawParams) return value;
    // A lone surrogate cannot be percent-encoded (no client could send it): it goes as U+FFFD, as browsers do.
    return encodeURIComponent(
      value.replace(/[\uD800-\uDFFF]/g, (unit, offset: number, all: string) => {
        const pair = /[\uD800-\uDBFF][\uDC00-\uDFFF]/;
        return pair.test(all.slice(offset, offset + 2)) || pair.test(all.slice(offset - 1, offset + 1))
          ? unit
          : "\uFFFD";
      }),
    );
  });
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(request.query ?? {})) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      query.append(key, typeof item === "object" && item !== null ? JSON.stringify(item) : String(item));
    }
  }
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

function replaceMarker(value: unknown, current: { version?: number }, key?: string): unknown {
  if (value === currentVersion) return current.version ?? (key === "baseVersion" ? null : 1);
  if (Array.isArray(value)) return value.map((item) => replaceMarker(item, current));
  if (value !== null && typeof value === "object") {
    const copy: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(value)) {
      Object.defineProperty(copy, name, {
        value: replaceMarker(item, current, name),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return copy;
  }
  return value;
}

const containsMarker = (value: unknown): boolean => JSON.stringify(value ?? null).includes("current-version");

function clip(text: string, length = 300): string {
  return text.length > length ? `${text.slice(0, length)}… (${text.length} chars)` : text;
}

function describeRequest(who: Caller, definition: RouteDefinition, request: FuzzRequest, url: string): string {
  const body = request.raw
    ? `raw ${request.raw.contentType}: ${clip(request.raw.payload, 120)}`
    : request.hasBody
      ? clip(JSON.stringify(request.body) ?? "undefined", 400)
      : "no body";
  const ifMatch = request.ifMatch === undefined ? "" : ` If-Match ${clip(JSON.stringify(request.ifMatch), 60)}`;
  return `[${who}, ${request.mutation}] ${definition.method} ${clip(url, 200)}${ifMatch} ${body}`;
}

async function adminGet(url: string) {
  return harness.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${world.adminToken}` } });
}

/** Sends one request; returns its status and what is wrong with the answer (nothing, normally). */
async function exercise(
  name: string,
  definition: RouteDefinition,
  request: FuzzRequest,
  who: Caller,
): Promise<{ status?: number; problems: string[] }> {
  const url = urlOf(definition, request);
  let body = request.body;
  let ifMatch = request.ifMatch;
  if (ifMatch === currentVersion || containsMarker(body)) {
    // A miss (a random or malformed id) leaves the version unknown: the request then names version 1.
    const current = await currentVersionOf(name, definition, url, request.params, adminGet).catch(
      (): { etag?: string; version?: number } => ({}),
    );
    body = replaceMarker(body, current);
    if (ifMatch === currentVersion) ifMatch = current.etag ?? `"${current.version ?? 1}"`;
  }
  const sent = { ...request, body, ifMatch };
  const headers: Record<string, string> = {
    authorization: `Bearer ${who === "admin" ? world.adminToken : world.noGroupsToken}`,
  };
  if (ifMatch !== undefined) headers["if-match"] = ifMatch;
  let payload: string | undefined;
  if (request.raw) {
    headers["content-type"] = request.raw.contentType;
    payload = request.raw.payload;
  } else if (request.hasBody && body !== undefined) {
    headers["content-type"] = "application/json";
    payload = JSON.stringify(body);
  }

  const write = definition.method !== "GET";
  const before = write ? await snapshotTables(harness.database.db, watched) : undefined;
  let response: LightMyRequestResponse;
  try {
    // An event stream stays open: its head (status, headers, first frame) is the answer judged here.
    response =
      definition.responseKind === "event-stream"
        ? ((await injectStreamHead(harness.app, {
            method: definition.method,
            url,
            headers,
          })) as unknown as LightMyRequestResponse)
        : await harness.app.inject({ method: definition.method, url, headers, payload });
  } catch (error) {
    return { problems: [`${describeRequest(who, definition, sent, url)} → the request failed: ${String(error)}`] };
  }

  const tally = tallies.get(name) ?? { requests: 0, statuses: new Map(), mutated: 0 };
  tally.requests += 1;
  if (request.mutation !== "none") tally.mutated += 1;
  tally.statuses.set(response.statusCode, (tally.statuses.get(response.statusCode) ?? 0) + 1);
  tallies.set(name, tally);

  const problems: string[] = [];
  const status = response.statusCode;
  if (process.env.FUZZ_DEBUG?.split(",").includes(name)) {
    console.info(`${describeRequest(who, definition, sent, url)} → ${status} ${clip(response.body, 400)}`);
  }
  const problem = (what: string) =>
    problems.push(`${describeRequest(who, definition, sent, url)} → ${status} ${clip(response.body)}: ${what}`);

  if (status >= 500) problem("a server error");
  let json: unknown;
  const empty = response.body.length === 0;
  // A PDF or a CSV is answered as the file itself; its refusals are JSON like every other.
  const file = (definition.responseKind === "pdf" || definition.responseKind === "csv") && status < 300;
  if (!empty && !file) {
    try {
      json = response.json();
    } catch {
      problem("the answer is not JSON");
    }
  }
  if (status >= 400) {
    const parsed = errorEnvelopeSchema.safeParse(json);
    if (!parsed.success) problem(`not the error envelope: ${parsed.error.message}`);
    else if (parsed.data.error.status !== status) problem(`error.status ${parsed.data.error.status} ≠ HTTP ${status}`);
  } else if (status >= 200 && status < 300) {
    const expected = definition.successStatus ?? 200;
    if (status !== expected) problem(`success status ${status}, the contract says ${expected}`);
    if (definition.response === null) {
      if (!empty) problem("a 204 with a body");
    } else if (definition.responseKind === "event-stream") {
      const frame = (response as unknown as StreamHead).firstFrame;
      const parsed = definition.response.safeParse(frame && { event: frame.event, data: json });
      if (!String(response.headers["content-type"]).startsWith("text/event-stream")) problem("not an event stream");
      else if (!parsed.success) problem(`the first frame does not match the contract: ${clip(parsed.error.message)}`);
    } else if (definition.responseKind === "pdf" || definition.responseKind === "csv") {
      const type = definition.responseKind === "pdf" ? "application/pdf" : "text/csv";
      if (!String(response.headers["content-type"]).startsWith(type)) problem(`not ${type}`);
      else if (type === "application/pdf" && !response.rawPayload.subarray(0, 5).equals(Buffer.from("%PDF-"))) {
        problem("not a PDF document");
      }
    } else if (definition.responseKind === "fhir-json") {
      const parsed = definition.response.safeParse(json);
      if (!String(response.headers["content-type"]).startsWith("application/fhir+json")) problem("not FHIR JSON");
      else if (!parsed.success) problem(`the resource does not match the contract: ${clip(parsed.error.message, 600)}`);
    } else {
      const parsed = successEnvelope(definition.response).safeParse(json);
      if (!parsed.success) problem(`the answer does not match the response schema: ${clip(parsed.error.message, 600)}`);
    }
  } else {
    problem("neither a success nor an error");
  }

  const guarded = definition.access !== "public" && definition.access !== "signed-in";
  // A malformed or over-long path segment stops the router before the route (and its access check) is reached.
  const routed =
    request.mutation !== "bad-param" &&
    request.mutation !== "raw-param" &&
    Object.values(request.params).every((value) => String(value).length <= 128);
  if (who === "no-groups" && guarded && routed) {
    if (status !== 403) problem(`a user without groups got ${status} from a ${definition.access} route, not 403`);
  }

  if (before && status >= 400) {
    const changed = changedTables(before, await snapshotTables(harness.database.db, watched));
    if (changed.length > 0) problem(`refused, yet it wrote: ${changed.join(", ")}`);
  }
  return { status, problems };
}

describe("the fuzzer's own checks", () => {
  it("sees a write when there is one, so a half-written refusal cannot go unnoticed", async () => {
    const before = await snapshotTables(harness.database.db, watched);
    const created = await world.team.technologist("POST", collectionOf("case-note", world.cases.monitoring), {
      body: sampleCaseNote(),
    });
    expect(created.statusCode, created.body).toBe(201);
    const changed = changedTables(before, await snapshotTables(harness.database.db, watched));
    expect(changed.join(", ")).toMatch(/case_records \(\d+ → \d+ rows\)/);
    expect(changed.join(", ")).toMatch(/case_record_revisions/);
  });
});

describe("route fuzzing", () => {
  table.forEach(([name, definition], index) => {
    it(`${definition.method} ${definition.path} (${name}) answers every generated request cleanly`, async () => {
      const problems: string[] = [];
      await fc.assert(
        fc.asyncProperty(requestArbitrary(definition), caller, async (request, who) => {
          problems.push(...(await exercise(name, definition, request, who)).problems);
        }),
        // The property collects problems instead of failing, so every bad answer is reported, not only a shrunk first
        // one; should the harness itself throw, stop there (shrinking against a stateful server proves little).
        { seed: seed + index, numRuns: runsPerRoute, endOnFailure: true },
      );
      expect(problems, `seed ${seed + index} (FUZZ_SEED=${seed})`).toEqual([]);
    }, 120_000);
  });
});

/**
 * Texts that databases, JSON and browsers have choked on. PostgreSQL cannot hold the first two at all (NUL anywhere,
 * an unpaired surrogate in jsonb): those must be refused with a 400 naming the field, the others stored or refused
 * cleanly.
 */
const unstorableTexts = ["nul", "lone surrogate"];
const hostileTexts = {
  nul: "before\u0000after",
  "lone surrogate": "\uD800 half an emoji",
  "direction override": "\u202Eevil\u202C",
  "astral and combining": "😀 Ωμέγα 𝕍 e\u0301",
  // Starts with a slash, so it also goes where a web path is expected (breadcrumbs), malformed escapes and all.
  "percent signs": "/50% off/%zz/%E0%A4%A/%",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, meant literally
  injection: "'; drop table cases; -- <script>alert(1)</script> ${7*7}",
} as const;

/** Puts `text` into every string of `value` where the schema still accepts it there (free text, not enums or ids). */
function withTextEverywhere(
  value: unknown,
  schema: z.ZodType | undefined,
  text: string,
): { value: unknown; placed: number } {
  let current = value;
  let placed = 0;
  for (const path of pathsOf(value)) {
    if (path.length === 0 || typeof valueAt(value, path) !== "string") continue;
    const candidate = withNode(current, path, text);
    if (!schema || schema.safeParse(candidate).success) {
      current = candidate;
      placed += 1;
    }
  }
  return { value: current, placed };
}

describe("hostile text in every free-text field", () => {
  const sampleOf = (definition: RouteDefinition, index: number): FuzzRequest => {
    // The first of a few samples that the route's own schemas accept, so the hostile text is the only oddity.
    const samples = fc.sample(validArbitrary(definition), { seed: seed + index, numRuns: 12 });
    const accepted = samples.find(
      (sample) =>
        (!definition.body || definition.body.safeParse(sample.body).success) &&
        (!definition.querystring || definition.querystring.safeParse(sample.query ?? {}).success),
    );
    return accepted ?? (samples[0] as FuzzRequest);
  };

  for (const [label, text] of Object.entries(hostileTexts)) {
    const unstorable = unstorableTexts.includes(label);
    it(`answers ${label} in every route's text fields cleanly${unstorable ? " (a 400 naming the field)" : ""}`, async () => {
      const problems: string[] = [];
      let placed = 0;
      for (const [index, [name, definition]] of table.entries()) {
        if (definition.method === "DELETE" || name === "archiveClient" || name === "restoreClient") continue;
        const sample = sampleOf(definition, index);
        const body = withTextEverywhere(sample.body, definition.body, text);
        const query = withTextEverywhere(sample.query, definition.querystring, text);
        if (body.placed + query.placed === 0) continue;
        placed += body.placed + query.placed;
        const request: FuzzRequest = {
          ...sample,
          body: body.value,
          query: query.value as Record<string, unknown> | undefined,
          mutation: `text: ${label}`,
        };
        const outcome = await exercise(name, definition, request, "admin");
        problems.push(...outcome.problems);
        // exercise() has checked the envelope; unstorable text must be refused before any service sees it. (A URL
        // cannot carry an unpaired surrogate: the query string turns it into U+FFFD, which is fine to store.)
        const carried = label === "lone surrogate" ? body.placed : body.placed + query.placed;
        if (unstorable && carried > 0 && outcome.status !== 400) {
          problems.push(`${name}: ${label} answered ${outcome.status}, not 400`);
        }
      }
      expect(problems).toEqual([]);
      expect(placed, "text fields reached").toBeGreaterThan(40);
    }, 120_000);
  }

  it("answers JSON nested 10,000 levels deep cleanly on every route that takes a body", async () => {
    const problems: string[] = [];
    const deep = [`${"[".repeat(10_000)}${"]".repeat(10_000)}`, `${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}`];
    for (const [index, [name, definition]] of table.entries()) {
      if (!definition.body) continue;
      const sample = sampleOf(definition, index);
      for (const payload of deep) {
        const request: FuzzRequest = {
          ...sample,
          raw: { payload, contentType: "application/json" },
          mutation: "deep nesting",
        };
        // Refused, or (an object of unknown keys, stripped: an empty PATCH) applied: either way cleanly.
        problems.push(...(await exercise(name, definition, request, "admin")).problems);
      }
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it("the identity endpoint answers a NUL character with a Cognito error, not a 500", async () => {
    for (const username of ["fz-root\u0000", "fz-root\uD800"]) {
      const response = await harness.cognito("InitiateAuth", {
        AuthFlow: "USER_PASSWORD_AUTH",
        ClientId: testClientId,
        AuthParameters: { USERNAME: username, PASSWORD: "irrelevant" },
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().__type).toBe("InvalidParameterException");
    }
  });
});

describe("what the fuzzed writes left behind", () => {
  it("left the billable figures kept on write equal to a recomputation from the time logs", async () => {
    expect(await compareBillableFigures(harness.database.db)).toEqual([]);
  });

  it("left every time log's kept concurrent-patient peak equal to a count from the logs", async () => {
    expect(await compareConcurrentPeaks(harness.database.db)).toEqual([]);
  });
});

describe("the fuzzer's reach", () => {
  it("got a 2xx from nearly every route, so the requests went deep, not only into validation", () => {
    if (tallies.size < table.length || runsPerRoute < 20) return; // a filtered or shortened run proves nothing here
    const never = table
      .map(([name]) => name)
      .filter((name) => ![...(tallies.get(name)?.statuses.keys() ?? [])].some((status) => status < 300));
    expect(never.length, `routes that never answered 2xx: ${never.join(", ")}`).toBeLessThanOrEqual(
      Math.floor(table.length / 10),
    );
  });
});
