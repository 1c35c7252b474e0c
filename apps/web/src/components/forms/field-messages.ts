import type { ErrorIssue } from "@vigil/contract";
import type { z } from "zod";
import { ApiRequestError } from "../../lib/api-client";

/** Field path → the one message shown under that field (`name`, `transferForm.fields.2.key`). */
export type FieldErrors = Record<string, string>;

/**
 * The contract words its own messages as fragments that follow the field's label ("is required", "must be an
 * email address"); zod's built-in ones are sentences about types ("Too small: expected number to be >=1"). This
 * per-parse error map words the built-in issues in the same fragment style, so every message reads
 * "<Label> <problem>". A message the schema sets itself takes precedence over it (zod 4 asks the schema first).
 */
export const fragmentErrorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined || issue.input === null) return "is required";
      if (issue.expected === "number" || issue.expected === "int") return "must be a number";
      return "is invalid";
    case "too_small": {
      const minimum = Number(issue.minimum);
      if (issue.origin === "string") return minimum <= 1 ? "is required" : `must be at least ${minimum} characters`;
      if (issue.origin === "array" || issue.origin === "set") return `needs at least ${minimum}`;
      return issue.inclusive === false ? `must be more than ${minimum}` : `must be at least ${minimum}`;
    }
    case "too_big": {
      const maximum = Number(issue.maximum);
      if (issue.origin === "string") return `must be at most ${maximum} characters`;
      if (issue.origin === "array" || issue.origin === "set") return `may have at most ${maximum}`;
      return issue.inclusive === false ? `must be less than ${maximum}` : `must be at most ${maximum}`;
    }
    case "not_multiple_of":
      return issue.divisor === 1 ? "must be a whole number" : `must be a multiple of ${issue.divisor}`;
    case "invalid_value":
      // zod 4 reports a missing choice (an enum left empty) as an invalid value.
      if (issue.input === undefined || issue.input === null) return "is required";
      return "is not one of the allowed values";
    default:
      return "is invalid";
  }
};

/** "Name" + "is required" → "Name is required"; a full sentence stays as it is. */
export function labelledMessage(label: string, message: string): string {
  return /^[a-z]/.test(message) ? `${label} ${message}` : message;
}

function isIssue(value: unknown): value is ErrorIssue {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as ErrorIssue).path === "string" &&
    typeof (value as ErrorIssue).message === "string"
  );
}

/**
 * The field messages of a 400 answer (`details.issues[{ path: "body.name", message }]`), keyed by the path inside
 * the body; issues about headers, params or the query are left to the form-level message.
 */
export function serverFieldErrors(error: unknown): FieldErrors {
  if (!(error instanceof ApiRequestError)) return {};
  const details = error.body.details;
  const issues = typeof details === "object" && details !== null ? (details as { issues?: unknown }).issues : undefined;
  if (!Array.isArray(issues)) return {};
  const errors: FieldErrors = {};
  for (const issue of issues) {
    if (!isIssue(issue) || !issue.path.startsWith("body")) continue;
    const key = issue.path.replace(/^body\.?/, "");
    if (!(key in errors)) errors[key] = issue.message;
  }
  return errors;
}

/** The server's error body of a failed call, when it was one (status, code, message, details). */
export function apiErrorOf(error: unknown) {
  return error instanceof ApiRequestError ? error.body : undefined;
}

/** `details.current` of a 409/412: the record as the server now holds it. */
export function currentFromDetails(error: unknown): unknown {
  const details = apiErrorOf(error)?.details;
  return typeof details === "object" && details !== null ? (details as { current?: unknown }).current : undefined;
}
