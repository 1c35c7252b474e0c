import type { Author, RevisionChange } from "@vigil/contract";
import { formatInstantInZone } from "@vigil/contract";
import type { CompareRow } from "../../../components/compare/side-by-side-compare";
import { apiErrorOf } from "../../../components/forms/field-messages";

export function authorName(author: Author): string {
  return author.name || author.username;
}

/** Why a revision exists, in words for the history. */
export const changeLabels: Record<RevisionChange, string> = {
  create: "Created",
  edit: "Edited",
  delete: "Deleted",
  restore: "Restored",
  sign: "Signed",
  addendum: "Addendum",
  "clock-out": "Clocked out",
};

/** A data key in words ("occurredAt" → "Occurred at"), for the re-apply summary. */
export function fieldWords(key: string): string {
  const words = key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const isoInstant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * A printable value as the screens show it: a value that is a whole ISO instant (what `flatten` may return for
 * times) is said in the client's zone with the zone named, like every other time on a case.
 */
export function displayValue(value: string, timeZone: string): string {
  return isoInstant.test(value) ? formatInstantInZone(value, timeZone) : value;
}

/** Rows for `SideBySideCompare` from two flattened versions (either may be missing: "(empty)"). */
export function compareRowsOf(
  left: Record<string, string> | undefined,
  right: Record<string, string> | undefined,
  timeZone: string,
): CompareRow[] {
  const labels = [...new Set([...Object.keys(left ?? {}), ...Object.keys(right ?? {})])];
  return labels.map((label) => ({
    key: label,
    label,
    left: displayValue(left?.[label] ?? "", timeZone),
    right: displayValue(right?.[label] ?? "", timeZone),
  }));
}

export type RecordFailure = {
  status: number;
  message: string;
  /** A 400's field messages, "<field> <message>". */
  issues: string[];
};

/** What a refused write says on screen: the server's message and, for a 400, each field's problem. */
export function describeRecordFailure(error: unknown): RecordFailure {
  const body = apiErrorOf(error);
  if (!body) return { status: 0, message: error instanceof Error ? error.message : String(error), issues: [] };
  const details = body.details as { issues?: { path?: unknown; message?: unknown }[] } | undefined;
  const issues = Array.isArray(details?.issues)
    ? details.issues.flatMap((issue) => {
        if (typeof issue.message !== "string") return [];
        const path = typeof issue.path === "string" ? issue.path.replace(/^body\.?/, "").replace(/^data\./, "") : "";
        return [path ? `${path.split(".").map(fieldWords).join(" › ")}: ${issue.message}` : issue.message];
      })
    : [];
  return { status: body.status, message: body.message, issues };
}
