import fc from "fast-check";

/**
 * The subset of JSON Schema that `z.toJSONSchema(schema, { io: "input" })` writes for the contract's schemas, turned
 * into fast-check arbitraries that produce values the schema describes. Refinements (a period in order, electrodes
 * listed once, a real time zone) have no JSON Schema form, so a generated value may still fail them: that is fine for
 * a fuzzer (the server must answer a clean 400), and `hints` supply realistic values for the fields where depth
 * matters more than breadth (ids that exist, time zones, months).
 */
export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  default?: unknown;
};

/**
 * A field's realistic values by property name. `schemaArbitrary` is what the schema alone would generate, so a hint
 * can mix both (mostly ids that exist, sometimes random ones). A hint is not used for enums and constants: a stage
 * named `to` is not a report's `to` date.
 */
export type Hint = (schemaArbitrary: fc.Arbitrary<unknown>, schema: JsonSchema) => fc.Arbitrary<unknown>;
export type Hints = Record<string, Hint>;

/** Date-times mostly in the recent past (records refuse the future), sometimes anywhere in 1900–2100 or at its edges. */
const anchor = Date.now();
const day = 86_400_000;
export const recentDateTime = fc
  .integer({ min: -45 * day, max: 0 })
  .map((offset) => new Date(anchor + offset).toISOString());
const anyDateTime = fc
  .date({ min: new Date("1900-01-01T00:00:00Z"), max: new Date("2100-12-31T23:59:59Z"), noInvalidDate: true })
  .map((date) => date.toISOString());
const offsetDateTime = recentDateTime.map((iso) => `${iso.slice(0, 19)}+05:30`);

/**
 * The first and last months, days and instants of years at the edges of the calendar the contract accepts
 * (1900–2200) and of what PostgreSQL can hold (it has no year 0, and the month 9999-12 ends in year 10000): each
 * must be served or refused with a 400 naming the field, never a failed query (those were 500s).
 */
const edgeYears = ["0000", "0001", "1899", "1900", "2200", "2201", "9999"];
const edgeMonths = edgeYears.flatMap((year) => [`${year}-01`, `${year}-12`]);
const edgeDays = edgeMonths.map((month) => `${month}-${month.endsWith("-01") ? "01" : "31"}`);
const edgeDateTimes = edgeDays.flatMap((date) =>
  date.endsWith("-01")
    ? [`${date}T00:00:00Z`, `${date}T00:00:00+14:00`]
    : [`${date}T23:59:59.999Z`, `${date}T23:00:00-12:00`],
);

export const dateTimeArbitrary = fc.oneof(
  { weight: 6, arbitrary: recentDateTime },
  { weight: 1, arbitrary: anyDateTime },
  { weight: 1, arbitrary: offsetDateTime },
  { weight: 1, arbitrary: fc.constantFrom(...edgeDateTimes) },
);
export const dateArbitrary = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .date({ min: new Date("1920-01-01T00:00:00Z"), max: new Date("2026-12-31T00:00:00Z"), noInvalidDate: true })
      .map((date) => date.toISOString().slice(0, 10)),
  },
  { weight: 1, arbitrary: fc.constantFrom(...edgeDays) },
);

const emailArbitrary = fc
  .tuple(
    fc.stringMatching(/^[a-z][a-z0-9]{0,11}$/),
    fc.nat(),
    fc.constantFrom("example.org", "vigil.test", "mail.example.com"),
  )
  .map(([local, tag, domain]) => `${local}.${tag}@${domain}`);
const urlArbitrary = fc
  .tuple(fc.constantFrom("https://example.org", "http://intranet.example.com"), fc.stringMatching(/^[a-z0-9/]{0,20}$/))
  .map(([origin, path]) => `${origin}/${path}`);

/** Text that reads like what people type, sometimes with accents and symbols. */
const textUnit = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,-") },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 }) },
);

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? Math.max(minLength, 40);
  switch (schema.format) {
    case "uuid":
      return fc.uuid({ version: 4 });
    case "email":
      return emailArbitrary;
    case "uri":
    case "url":
      return urlArbitrary;
    case "date-time":
      return dateTimeArbitrary;
    case "date":
      return dateArbitrary;
  }
  // Calendar days and months (reports, billing): mostly near today, so that ranges are short enough to be served;
  // the pattern alone would range over ten thousand years.
  if (schema.pattern?.startsWith("^\\d{4}-")) {
    const length = schema.pattern.includes(")-(") ? 10 : 7;
    const near = recentDateTime.map((iso) => iso.slice(0, length));
    return fc.oneof(
      { weight: 4, arbitrary: near },
      { weight: 1, arbitrary: fc.stringMatching(new RegExp(schema.pattern)) },
      { weight: 1, arbitrary: fc.constantFrom(...(length === 10 ? edgeDays : edgeMonths)) },
    );
  }
  if (schema.pattern) {
    let matching: fc.Arbitrary<string> | undefined;
    try {
      matching = fc.stringMatching(new RegExp(schema.pattern));
    } catch {
      // Unicode property escapes (\p{L}) are beyond fast-check's regex support: letters and digits match them.
      matching = undefined;
    }
    if (matching) {
      // A regex says nothing of length; trim what is too long rather than filtering (which could starve).
      return matching.filter((value) => value.length >= minLength).map((value) => value.slice(0, maxLength));
    }
    return fc.stringMatching(/^[a-z][a-z0-9.-]{0,20}$/).map((value) => value.slice(0, maxLength));
  }
  // Mostly short, non-blank text (the contract trims before `min(1)`), sometimes right at the limit.
  const lengthCap = Math.min(maxLength, minLength + 30);
  const typed = fc
    .array(textUnit, { minLength: Math.max(minLength, 1), maxLength: Math.max(lengthCap, 1) })
    .map((units) => units.join("").slice(0, maxLength))
    .filter((value) => value.length >= minLength && (minLength === 0 || value.trim().length >= minLength));
  if (schema.maxLength === undefined || schema.maxLength > 10_000) return typed;
  const atLimit = fc.constant("x".repeat(maxLength));
  return fc.oneof({ weight: 9, arbitrary: typed }, { weight: 1, arbitrary: atLimit });
}

function numberArbitrary(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min =
    schema.minimum ??
    (schema.exclusiveMinimum === undefined ? -1_000_000 : schema.exclusiveMinimum + (integer ? 1 : 0.01));
  const max =
    schema.maximum ??
    (schema.exclusiveMaximum === undefined ? 1_000_000 : schema.exclusiveMaximum - (integer ? 1 : 0.01));
  if (integer) {
    // Near the minimum is where versions, revisions, counts and pages live; the whole range finds overflows
    // (a 2^53 version sent to a 32-bit column).
    const low = schema.minimum === undefined && schema.exclusiveMinimum === undefined ? 0 : min;
    const near = fc.integer({ min: low, max: Math.min(low + 5, max) });
    const whole = fc.bigInt({ min: BigInt(Math.ceil(min)), max: BigInt(Math.floor(max)) }).map(Number);
    return fc.oneof({ weight: 4, arbitrary: near }, { weight: 1, arbitrary: whole });
  }
  return fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: Math.ceil(min), max: Math.min(Math.ceil(min) + 20, Math.floor(max)) }) },
    { weight: 2, arbitrary: fc.double({ min, max, noNaN: true, noDefaultInfinity: true }) },
  );
}

/** An arbitrary of the values `schema` describes (required properties always, optional ones sometimes). */
export function arbitraryOf(schema: JsonSchema, hints: Hints = {}, name?: string): fc.Arbitrary<unknown> {
  const plain = plainArbitraryOf(schema, hints, name);
  const hint = name === undefined || schema.enum || schema.const !== undefined ? undefined : hints[name];
  return hint ? hint(plain, schema) : plain;
}

function plainArbitraryOf(schema: JsonSchema, hints: Hints, name?: string): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && alternatives.length > 0) {
    return fc.oneof(...alternatives.map((alternative) => arbitraryOf(alternative, hints, name)));
  }
  if (schema.allOf?.[0]) return arbitraryOf(schema.allOf[0], hints, name);
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length > 1) {
    return fc.oneof(...types.map((type) => plainArbitraryOf({ ...schema, type }, hints, name)));
  }
  switch (types[0]) {
    case "object": {
      const properties = schema.properties ?? {};
      const model = Object.fromEntries(
        Object.entries(properties).map(([key, property]) => [key, arbitraryOf(property, hints, key)]),
      );
      return fc.record(model, { requiredKeys: (schema.required ?? []).filter((key) => key in properties) });
    }
    case "array": {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.min(schema.maxItems ?? minLength + 3, minLength + 3);
      return fc.array(arbitraryOf(schema.items ?? {}, hints), { minLength, maxLength });
    }
    case "boolean":
      return fc.boolean();
    case "integer":
      return numberArbitrary(schema, true);
    case "number":
      return numberArbitrary(schema, false);
    case "null":
      return fc.constant(null);
    case "string":
      return stringArbitrary(schema);
    default:
      // `unrepresentable: "any"` leaves an empty schema: any JSON value will do.
      return fc.jsonValue({ maxDepth: 2 });
  }
}
