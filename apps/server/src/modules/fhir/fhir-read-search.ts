import { AppError } from "../../errors/app-error.js";
import type { DateBound } from "./fhir-read-repository.js";
import { reportIdOfObservation } from "./fhir-resource-observation.js";

/**
 * The search parameters of the hospital's FHIR API, read strictly: a parameter Vigil does not support, a malformed
 * value or a modifier it does not know is a 400 (`AppError("bad_request")` with `details.fhir`, which the FHIR frame
 * answers as an OperationOutcome), never silently ignored — a receiver that filtered by a parameter we dropped would
 * file another patient's reports as its own. docs/design/FHIR.md lists them.
 */

export const readableTypes = [
  "Patient",
  "Practitioner",
  "ServiceRequest",
  "Task",
  "DiagnosticReport",
  "Observation",
  "DocumentReference",
  "Binary",
] as const;
export type ReadableType = (typeof readableTypes)[number];

/** The parameters each type is searched by (besides `_id`, `_count`, `_cursor`); Practitioner and Binary are read only. */
export const searchParameters: Record<ReadableType, readonly string[]> = {
  Patient: ["identifier", "_lastUpdated"],
  Practitioner: [],
  ServiceRequest: ["identifier", "patient", "subject", "patient:identifier", "status", "_lastUpdated"],
  Task: ["focus", "status", "patient", "patient:identifier", "_lastUpdated"],
  DiagnosticReport: ["patient", "subject", "patient:identifier", "based-on", "date", "status", "_lastUpdated"],
  Observation: ["patient", "subject", "patient:identifier", "based-on", "_lastUpdated"],
  DocumentReference: ["patient", "subject", "patient:identifier"],
  Binary: [],
};

export const defaultPageSize = 20;
export const maxPageSize = 100;

export type Token = { system: string | undefined; value: string };

export type ParsedSearch = {
  /** Every parameter as given (repeats kept), for the Bundle's self and next links. */
  params: [string, string][];
  count: number;
  afterId: string | undefined;
  ids: string[] | undefined;
  patientIds: string[] | undefined;
  patientIdentifier: Token | undefined;
  identifier: Token | undefined;
  basedOn: string[] | undefined;
  focus: string[] | undefined;
  statuses: string[] | undefined;
  date: DateBound[];
  lastUpdated: DateBound[];
};

export function fhirInputError(message: string, parameter?: string): AppError {
  return new AppError("bad_request", message, { fhir: { issueCode: "invalid", parameter } });
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A resource id of Vigil's: a UUID (anything else names nothing, and is said to be not found by the caller). */
export function isVigilId(id: string): boolean {
  return uuidPattern.test(id);
}

/** An id Vigil serves for `type`: a UUID, or for an Observation its report's UUID and the finding's place. */
export function isIdOf(type: ReadableType, id: string): boolean {
  return type === "Observation" ? reportIdOfObservation(id) !== undefined : isVigilId(id);
}

function referenceIds(name: string, values: string[], type: string): string[] {
  return values.flatMap((value) =>
    value.split(",").map((part) => {
      const id = part.startsWith(`${type}/`) ? part.slice(type.length + 1) : part;
      if (id.includes("/")) throw fhirInputError(`${name} must reference a ${type}: "${part}" does not.`, name);
      return id;
    }),
  );
}

function tokenOf(name: string, value: string): Token {
  if (value.includes(",")) throw fhirInputError(`${name} takes one identifier, not a list.`, name);
  const bar = value.indexOf("|");
  const token =
    bar < 0 ? { system: undefined, value } : { system: value.slice(0, bar) || undefined, value: value.slice(bar + 1) };
  if (!token.value) throw fhirInputError(`${name} needs a value ("system|value" or "value").`, name);
  return token;
}

const datePattern =
  /^(eq|ne|gt|lt|ge|le|sa|eb|ap)?(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2}))?)?)?$/;

/**
 * A date parameter as the range it names: `2026`, `2026-11`, `2026-11-05` (days in UTC) or an instant with its zone,
 * each with its precision (a day is [00:00, next 00:00)); prefixes eq, gt, ge, lt, le.
 */
export function dateBoundOf(name: string, value: string): DateBound {
  const match = datePattern.exec(value);
  if (!match) throw fhirInputError(`${name} must be a FHIR date such as ge2026-11-05 or 2026-11-05T08:00:00Z.`, name);
  const [, prefix = "eq", year, month, day, hour, , second, , zone] = match;
  if (!["eq", "gt", "ge", "lt", "le"].includes(prefix)) {
    throw fhirInputError(`${name}: the prefix ${prefix} is not supported (eq, gt, ge, lt, le are).`, name);
  }
  if (hour !== undefined && zone === undefined)
    throw fhirInputError(`${name}: a time needs its zone (Z or ±hh:mm).`, name);
  let from: Date;
  let toExclusive: Date;
  if (hour !== undefined) {
    from = new Date(value.replace(/^[a-z]{2}/, ""));
    toExclusive = new Date(from.getTime() + (second === undefined ? 60_000 : 1_000));
  } else {
    const y = Number(year);
    const m = month === undefined ? 0 : Number(month) - 1;
    const d = day === undefined ? 1 : Number(day);
    from = new Date(Date.UTC(y, m, d));
    toExclusive =
      day !== undefined
        ? new Date(Date.UTC(y, m, d + 1))
        : month !== undefined
          ? new Date(Date.UTC(y, m + 1, 1))
          : new Date(Date.UTC(y + 1, 0, 1));
    if (from.getUTCMonth() !== m || from.getUTCDate() !== d)
      throw fhirInputError(`${name}: ${value} is no date.`, name);
  }
  if (Number.isNaN(from.getTime())) throw fhirInputError(`${name}: ${value} is no date.`, name);
  return { op: prefix as DateBound["op"], from, toExclusive };
}

function countOf(values: string[]): number {
  const value = values.at(-1) ?? String(defaultPageSize);
  if (!/^\d{1,6}$/.test(value)) throw fhirInputError("_count must be a whole number.", "_count");
  return Math.min(Number(value), maxPageSize);
}

/** The cursor is the last id of the page before (base64url): ids never change, so a page never repeats or skips. */
export function cursorOf(id: string): string {
  return Buffer.from(id, "utf8").toString("base64url");
}

function afterIdOf(values: string[]): string | undefined {
  const value = values.at(-1);
  if (value === undefined) return undefined;
  const id = Buffer.from(value, "base64url").toString("utf8");
  if (!isVigilId(id) && !reportIdOfObservation(id)) {
    throw fhirInputError("_cursor is not one this server gave.", "_cursor");
  }
  return id;
}

const taskStatuses = ["requested", "accepted", "in-progress", "completed", "rejected", "cancelled"];
const statusesOf: Partial<Record<ReadableType, readonly string[]>> = {
  Task: taskStatuses,
  ServiceRequest: ["active", "completed", "revoked"],
  DiagnosticReport: ["final", "amended"],
};

/**
 * The query of a search on `type`, checked. `query` is Fastify's: a parameter given twice is an array. Values are
 * taken as sent; `_format` is allowed and left to the frame.
 */
export function parseSearch(type: ReadableType, query: Record<string, unknown>): ParsedSearch {
  const allowed = new Set([...searchParameters[type], "_id", "_count", "_cursor", "_format"]);
  const params: [string, string][] = [];
  const byName = new Map<string, string[]>();
  for (const [name, raw] of Object.entries(query)) {
    const values = (Array.isArray(raw) ? raw : [raw]).map((value) => String(value ?? ""));
    if (!allowed.has(name)) {
      throw fhirInputError(`${type} cannot be searched by "${name}" here; see the CapabilityStatement.`, name);
    }
    byName.set(name, values);
    if (name !== "_cursor" && name !== "_count") for (const value of values) params.push([name, value]);
  }
  const one = (name: string): string | undefined => {
    const values = byName.get(name);
    if (values && values.length > 1) throw fhirInputError(`${name} may be given once.`, name);
    return values?.[0];
  };
  const patientRef = [...(byName.get("patient") ?? []), ...(byName.get("subject") ?? [])];
  const statusValues = byName.get("status")?.flatMap((value) => value.split(","));
  const knownStatuses = statusesOf[type] ?? [];
  for (const status of statusValues ?? []) {
    if (!knownStatuses.includes(status)) {
      throw fhirInputError(`status "${status}" is not a ${type} status (${knownStatuses.join(", ")}).`, "status");
    }
  }
  const identifier = one("identifier");
  const patientIdentifier = one("patient:identifier");
  return {
    params,
    count: countOf(byName.get("_count") ?? []),
    afterId: afterIdOf(byName.get("_cursor") ?? []),
    ids: byName.get("_id")?.flatMap((value) => value.split(",")),
    patientIds: patientRef.length > 0 ? referenceIds("patient", patientRef, "Patient") : undefined,
    patientIdentifier: patientIdentifier === undefined ? undefined : tokenOf("patient:identifier", patientIdentifier),
    identifier: identifier === undefined ? undefined : tokenOf("identifier", identifier),
    basedOn: byName.has("based-on")
      ? referenceIds("based-on", byName.get("based-on") ?? [], "ServiceRequest")
      : undefined,
    focus: byName.has("focus") ? referenceIds("focus", byName.get("focus") ?? [], "ServiceRequest") : undefined,
    statuses: statusValues,
    date: (byName.get("date") ?? []).map((value) => dateBoundOf("date", value)),
    lastUpdated: (byName.get("_lastUpdated") ?? []).map((value) => dateBoundOf("_lastUpdated", value)),
  };
}
