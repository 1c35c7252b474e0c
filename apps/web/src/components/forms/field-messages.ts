import type { ErrorIssue } from "@vigil/contract";
import { ApiRequestError } from "../../lib/api-client";

/** Field path → the one message shown under that field (`name`, `transferForm.fields.2.key`). */
export type FieldErrors = Record<string, string>;

/**
 * "Name" + "is required" → "Name is required"; a full sentence stays as it is. A label's "(optional)" is left out:
 * "Phone must be a phone number…", not "Phone (optional) must be…".
 */
export function labelledMessage(label: string, message: string): string {
  const name = label.replace(/\s*\(optional\)$/i, "");
  return /^[a-z]/.test(message) ? `${name} ${message}` : message;
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
