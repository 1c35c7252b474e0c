import { isoToZonedInput, zonedInputToIso } from "../../../components/dates/zoned-input";

/**
 * Form text → request values for the record editors: blank boxes become null (or undefined where the field is
 * required, so the schema says "is required"), text that does not parse is passed on as it is so the schema
 * names the problem under its field.
 */

/** A `datetime-local` text read in the client's zone → the instant; blank → `blank`. */
export function zonedInstant<B extends null | undefined>(text: string, timeZone: string, blank: B): string | B {
  if (text.trim() === "") return blank;
  return zonedInputToIso(text, timeZone) ?? text;
}

/** A number box: blank → null, a number → the number, anything else → the text (the schema says "must be a number"). */
export function numberOrNull(text: string | number | null | undefined): number | string | null {
  if (text === null || text === undefined) return null;
  if (typeof text === "number") return text;
  const trimmed = text.trim();
  if (trimmed === "") return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : text;
}

/** A select whose empty choice means "not stated": "" → null. */
export function choiceOrNull<T extends string>(text: T | ""): T | null {
  return text === "" ? null : text;
}

/** The current minute on the client's clocks, for a new record's time. */
export function nowInZone(timeZone: string, now = new Date()): string {
  return isoToZonedInput(now.toISOString(), timeZone);
}

/** A number shown back in a box ("" for none). */
export function numberText(value: number | null | undefined): string {
  return value === null || value === undefined ? "" : String(value);
}

/** A time for `flatten`: the ISO instant itself, which the tab says in the client's zone with the zone named. */
export function printableInstant(iso: string | null | undefined): string {
  return iso ?? "";
}
