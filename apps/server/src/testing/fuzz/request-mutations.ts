import fc from "fast-check";

/**
 * One generated request, before it is sent. `params`, `query` and `body` are what the route's schemas describe (or a
 * mutation of it); `raw` replaces the JSON body with bytes of any content type; `rawParams` are path segments sent
 * without percent-encoding (malformed escapes, slashes).
 */
export type FuzzRequest = {
  params: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
  hasBody: boolean;
  raw?: { payload: string; contentType: string };
  rawParams?: boolean;
  ifMatch?: string;
  /** "none" for a request built from the schemas; else which mutation made it. */
  mutation: string;
};

type Path = (string | number)[];

/** Every node of a JSON value, as paths from the root (the root itself is `[]`). */
export function pathsOf(value: unknown, prefix: Path = []): Path[] {
  const paths: Path[] = [prefix];
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) paths.push(...pathsOf(item, [...prefix, index]));
  } else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) paths.push(...pathsOf(item, [...prefix, key]));
  }
  return paths;
}

export function valueAt(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)?.[key], value);
}

/** A copy of `value` with the node at `path` replaced (or removed when `replacement` is `remove`). */
export function withNode(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement === remove ? undefined : replacement;
  const [head, ...rest] = path as [string | number, ...Path];
  if (Array.isArray(value)) {
    const copy = [...value];
    if (rest.length === 0 && replacement === remove) copy.splice(Number(head), 1);
    else copy[Number(head)] = withNode(copy[Number(head)], rest, replacement);
    return copy;
  }
  const copy = { ...(value as Record<string, unknown>) };
  if (rest.length === 0 && replacement === remove) delete copy[head];
  else copy[head] = withNode(copy[head], rest, replacement);
  return copy;
}

export const remove = Symbol("remove");

/** Strings that have broken servers before: NUL bytes, lone surrogates, direction overrides, injections. */
export const nastyStrings = [
  "\u0000",
  "before\u0000after",
  "\uD800",
  "\uDFFF lone low surrogate",
  "\u202Eevil\u202C",
  "\u200B\u200B",
  "e\u0301\u0301\u0301",
  "😀".repeat(40),
  "𝕍𝕚𝕘𝕚𝕝",
  "Ω≈ç√∫˜µ≤≥÷",
  "' OR 1=1 --",
  "'; drop table clients; --",
  "<script>alert(1)</script>",
  "../../../../etc/passwd",
  "%00%ff%",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, meant literally
  "${7*7}{{7*7}}",
  "   ",
  "",
  "null",
  "\\",
  "\r\n\t",
  "NaN",
  "-1",
  "9".repeat(400),
  "2026-02-30",
  "2026-13",
  "0000-01",
  "9999-12-31T23:59:59Z",
  "0001-01-01T00:00:00Z",
] as const;

const nastyString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...nastyStrings) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 30 }) },
);

const edgeNumbers = [
  -1,
  0,
  -0,
  0.5,
  1.5,
  -(2 ** 31),
  2 ** 31,
  2 ** 32,
  2 ** 53,
  Number.MAX_SAFE_INTEGER,
  -Number.MAX_SAFE_INTEGER,
  1e21,
  1e308,
  -1e308,
  5e-324,
] as const;

/** A value of any JSON type, to put where the schema wants another. */
const wrongValue = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, [], {}, [null], { nested: { deeper: [1, "two"] } }),
  fc.constantFrom(...edgeNumbers),
  nastyString,
  fc.jsonValue({ maxDepth: 2 }),
);

/** Huge strings: a paragraph, far past every field's limit, and (rarely) past the 1 MiB body limit. */
const hugeString = fc
  .constantFrom(2_001, 20_001, 150_000, 1_100_000)
  .chain((length) =>
    fc.constantFrom("a", "é", "😀", " ", "0").map((unit) => unit.repeat(Math.ceil(length / unit.length))),
  );

const badIds = [
  "not-a-uuid",
  "1",
  "-1",
  "0",
  "00000000-0000-0000-0000-000000000000",
  "ffffffff-ffff-ffff-ffff-ffffffffffff",
  "00000000-0000-4000-8000-00000000000",
  "00000000-0000-4000-8000-0000000000000",
  "00000000000040008000000000000000",
  "{00000000-0000-4000-8000-000000000000}",
  "g0000000-0000-4000-8000-000000000000",
  "x".repeat(5000),
  "😀",
  " ",
  "null",
  "undefined",
  "..",
  "'; drop table cases; --",
  "\u0000",
  "%",
] as const;

/** Malformed path segments sent as they are, not percent-encoded. */
const rawSegments = ["%", "%zz", "%00", "%C0%AF", "a%2Fb", "%E2%80%AE", "%uD800"] as const;

const badIfMatch = [
  "*",
  "",
  " ",
  "W/",
  '"',
  '""',
  '"abc"',
  "0",
  "-1",
  "1.5",
  "1e3",
  "99999999999",
  "4294967296",
  "2147483648",
  "1,2,3",
  'W/"2"',
  '"1", "2", "3"',
  ",,,",
  "1".repeat(5000),
  "٣",
  "\u00ff\u00fe",
  '"2026-01-01T00:00:00.000Z"',
] as const;

const badQueryValues = ["-1", "0", "abc", "1e3", "1.5", "99999999999999999999", "", "true", "%", "\u0000"] as const;

const rawBodies = [
  { payload: '{"unterminated":', contentType: "application/json" },
  { payload: "", contentType: "application/json" },
  { payload: "null", contentType: "application/json" },
  { payload: "[]", contentType: "application/json" },
  { payload: '"a string"', contentType: "application/json" },
  { payload: "42", contentType: "application/json" },
  { payload: '{"__proto__":{"admin":true}}', contentType: "application/json" },
  { payload: '{"constructor":{"prototype":{"admin":true}}}', contentType: "application/json" },
  { payload: `${"[".repeat(5000)}${"]".repeat(5000)}`, contentType: "application/json" },
  { payload: '{"a":1,"a":2}', contentType: "application/json" },
  { payload: "\uFEFF{}", contentType: "application/json" },
  { payload: "name=x&code=y", contentType: "application/x-www-form-urlencoded" },
  { payload: "plain words", contentType: "text/plain" },
  { payload: "<xml/>", contentType: "application/xml" },
  { payload: "{}", contentType: "application/json; charset=utf-16" },
  { payload: "{}", contentType: "multipart/form-data; boundary=x" },
] as const;

export const mutationKinds = [
  "drop-field",
  "wrong-type",
  "huge-string",
  "nasty-string",
  "edge-number",
  "extra-field",
  "raw-body",
  "no-body",
  "bad-param",
  "raw-param",
  "bad-query",
  "bad-if-match",
  "no-if-match",
] as const;
export type MutationKind = (typeof mutationKinds)[number];

/** A mutation chosen independently of the request; `pick` selects which node it hits. */
export type MutationPlan = {
  kind: MutationKind;
  pick: number;
  wrong: unknown;
  huge: string;
  nasty: string;
  number: number;
  extraKey: string;
  raw: { payload: string; contentType: string };
  badId: string;
  rawSegment: string;
  queryValue: string;
  ifMatch: string;
};

export const mutationPlan: fc.Arbitrary<MutationPlan> = fc.record({
  kind: fc.constantFrom(...mutationKinds),
  pick: fc.nat(),
  wrong: wrongValue,
  huge: hugeString,
  nasty: nastyString,
  number: fc.constantFrom(...edgeNumbers),
  extraKey: fc.oneof(
    fc.constantFrom("__proto__", "constructor", "id", "version", "archivedAt", "createdBy", "status", "stage", "x"),
    fc.string({ minLength: 1, maxLength: 12 }),
  ),
  raw: fc.constantFrom(...rawBodies),
  badId: fc.constantFrom(...badIds),
  rawSegment: fc.constantFrom(...rawSegments),
  queryValue: fc.oneof(fc.constantFrom(...badQueryValues), nastyString),
  ifMatch: fc.constantFrom(...badIfMatch),
});

function pickFrom<T>(items: T[], pick: number): T | undefined {
  return items.length === 0 ? undefined : items[pick % items.length];
}

/** Paths to the body's leaves of one JSON type (strings, numbers…). */
function leavesOf(value: unknown, type: string): Path[] {
  return pathsOf(value).filter((path) => path.length > 0 && typeof valueAt(value, path) === type);
}

/** Paths to object properties (what can be dropped). */
function propertiesOf(value: unknown): Path[] {
  return pathsOf(value).filter((path) => {
    if (path.length === 0) return false;
    const parent = valueAt(value, path.slice(0, -1));
    return parent !== null && typeof parent === "object" && !Array.isArray(parent);
  });
}

/**
 * Applies one mutation to a request built from the schemas. A mutation may leave a request valid (dropping an
 * optional field): the properties checked hold for any answer, so that is fine.
 */
export function mutate(request: FuzzRequest, plan: MutationPlan): FuzzRequest {
  const mutated: FuzzRequest = { ...request, mutation: plan.kind };
  const body = request.body;
  const paramNames = Object.keys(request.params);
  switch (plan.kind) {
    case "drop-field": {
      const target = pickFrom(propertiesOf(body), plan.pick);
      if (target) mutated.body = withNode(body, target, remove);
      else if (request.query && Object.keys(request.query).length > 0) {
        const key = pickFrom(Object.keys(request.query), plan.pick) as string;
        mutated.query = withNode(request.query, [key], remove) as Record<string, unknown>;
      } else mutated.hasBody = false;
      return mutated;
    }
    case "wrong-type": {
      if (!request.hasBody) return mutate(request, { ...plan, kind: "bad-query" });
      const target = pickFrom(pathsOf(body), plan.pick) ?? [];
      mutated.body = withNode(body, target, plan.wrong);
      return mutated;
    }
    case "huge-string":
    case "nasty-string": {
      const replacement = plan.kind === "huge-string" ? plan.huge : plan.nasty;
      const strings = leavesOf(body, "string");
      const target = pickFrom(strings, plan.pick);
      if (request.hasBody && target) {
        mutated.body = withNode(body, target, replacement);
        return mutated;
      }
      const queryKeys = Object.keys(request.query ?? {});
      if (queryKeys.length > 0 && plan.pick % 2 === 0) {
        mutated.query = { ...request.query, [queryKeys[plan.pick % queryKeys.length] as string]: replacement };
      } else if (paramNames.length > 0) {
        // Keep path segments below the URL limits Node enforces, so the server (not the parser) answers.
        mutated.params = {
          ...request.params,
          [paramNames[plan.pick % paramNames.length] as string]: replacement.slice(0, 6000),
        };
      } else {
        mutated.query = { ...request.query, search: replacement.slice(0, 6000) };
      }
      return mutated;
    }
    case "edge-number": {
      const target = pickFrom(leavesOf(body, "number"), plan.pick) ?? pickFrom(pathsOf(body), plan.pick);
      if (request.hasBody && target) mutated.body = withNode(body, target, plan.number);
      else mutated.query = { ...request.query, limit: String(plan.number), offset: String(-plan.number) };
      return mutated;
    }
    case "extra-field": {
      if (!request.hasBody || body === null || typeof body !== "object" || Array.isArray(body)) {
        mutated.query = { ...request.query, [plan.extraKey]: JSON.stringify(plan.wrong) ?? "x" };
        return mutated;
      }
      const copy = { ...(body as Record<string, unknown>) };
      // An own `__proto__` property (as JSON.parse would make), not a prototype change.
      Object.defineProperty(copy, plan.extraKey, {
        value: plan.wrong,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      mutated.body = copy;
      return mutated;
    }
    case "raw-body":
      mutated.raw = plan.raw;
      mutated.hasBody = true;
      return mutated;
    case "no-body":
      mutated.hasBody = false;
      return mutated;
    case "bad-param":
    case "raw-param": {
      if (paramNames.length === 0) return mutate(request, { ...plan, kind: "bad-query" });
      const name = paramNames[plan.pick % paramNames.length] as string;
      mutated.params = { ...request.params, [name]: plan.kind === "bad-param" ? plan.badId : plan.rawSegment };
      mutated.rawParams = plan.kind === "raw-param";
      return mutated;
    }
    case "bad-query": {
      const keys = ["limit", "offset", "sort", "order", "status", "search", ...Object.keys(request.query ?? {})];
      const key = keys[plan.pick % keys.length] as string;
      // Repeated keys arrive as arrays, which a schema for one value must refuse cleanly.
      const value = plan.pick % 3 === 0 ? [plan.queryValue, plan.queryValue] : plan.queryValue;
      mutated.query = { ...request.query, [key]: value };
      return mutated;
    }
    case "bad-if-match":
      mutated.ifMatch = plan.ifMatch;
      return mutated;
    case "no-if-match":
      mutated.ifMatch = undefined;
      return mutated;
  }
}
