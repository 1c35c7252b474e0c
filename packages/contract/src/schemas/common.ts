import { z } from "zod";
import { contractErrorMap } from "./wording.js";

// The contract's wording is zod's default wherever the contract is loaded: the server's validation (its 400s), the
// screens' forms and filters, and any schema built beside them. Here, in the module every schema module imports,
// because a bundler drops a module imported only for its side effects (the web build treats the contract as pure).
z.config({ customError: contractErrorMap });

/** Shared field rules, so every form and route words the same problem the same way. */
// Worded by the contract's map: "is required" when missing, "must be a valid id" when not a UUID.
export const idSchema = z.uuid();
export const idParamsSchema = z.object({ id: idSchema });

/**
 * The calendar Vigil handles: every month, day and instant a request names lies in 1900–2200. PostgreSQL has no year
 * 0 and the month 9999-12 ends in year 10000, so without a bound such requests failed their queries (500s) instead of
 * being refused with a 400 naming the field; no patient, recording or invoice lies outside this range.
 */
export const supportedCalendar = { firstMonth: "1900-01", lastMonth: "2200-12" } as const;
const { firstMonth, lastMonth } = supportedCalendar;
const firstDay = `${firstMonth}-01`;
const lastDay = `${lastMonth}-31`;
const firstInstant = Date.parse(`${firstDay}T00:00:00Z`);
const endInstant = Date.parse(`${Number(lastMonth.slice(0, 4)) + 1}-01-01T00:00:00Z`);

const monthPattern = /^\d{4}-(0[1-9]|1[0-2])$/;
const monthFormat = { message: "must be a month as YYYY-MM, e.g. 2026-11", abort: true } as const;
const dateTimeFormat = { offset: true, message: "must be a date and time such as 2026-11-05T14:30:00Z", abort: true };

/**
 * An instant with its offset (`Z` or `±hh:mm`), e.g. 2026-11-05T14:30:00Z. Bounded as an instant (in UTC), not by
 * the year as written: answers give instants back in UTC, and they must pass the same schema.
 */
export const isoDateTimeSchema = z.iso.datetime(dateTimeFormat).refine((value) => {
  const instant = Date.parse(value);
  return instant >= firstInstant && instant < endInstant;
}, `must be between ${firstDay}T00:00:00Z and ${lastDay}T23:59:59Z`);

/** A calendar month (billing is cut in the client's time zone). */
export const monthSchema = z
  .string()
  .trim()
  .regex(monthPattern, monthFormat)
  .refine(
    (value) => value >= firstMonth && value <= lastMonth,
    `must be a month between ${firstMonth} and ${lastMonth}`,
  );
export type Month = z.infer<typeof monthSchema>;

/** A calendar day (a date of birth, a reporting period), without a time or zone. */
export const calendarDateSchema = z
  .string()
  .trim()
  .regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, { message: "must be a date as YYYY-MM-DD", abort: true })
  .refine((value) => value >= firstDay && value <= lastDay, {
    message: `must be a date between ${firstDay} and ${lastDay}`,
    abort: true,
  })
  .refine((value) => {
    // Date.parse rolls 2026-02-30 over to March 2 (or gives NaN): a real day reads back as itself.
    const instant = Date.parse(`${value}T00:00:00Z`);
    return !Number.isNaN(instant) && new Date(instant).toISOString().startsWith(value);
  }, "must be a real calendar date");

/**
 * The latest calendar day that has begun anywhere on Earth (UTC+14), evaluated when called: a date of birth typed in
 * any client's zone is never "in the future" while it is already that day somewhere, and a day no one has reached
 * yet is refused.
 */
export function latestCalendarDayBegun(now: number = Date.now()): string {
  return new Date(now + 14 * 3_600_000).toISOString().slice(0, 10);
}

/** A day that has already come (a date of birth): judged at validation time, by the form and by the API alike. */
export const pastCalendarDateSchema = calendarDateSchema.refine(
  (value) => value <= latestCalendarDayBegun(),
  "must not be in the future",
);

/**
 * For answers only: an instant or month the server derived from supported ones in a client's time zone (a month's
 * bounds, the month a time log falls in) may lie up to a day past the supported calendar, and an answer must never
 * fail its own schema. Requests use the bounded schemas above.
 */
export const derivedDateTimeSchema = z.iso.datetime(dateTimeFormat);
export const derivedMonthSchema = z.string().regex(monthPattern, monthFormat);

/**
 * One rule for every from/to range a query takes (the case queues, the audit log, the billing overview, the
 * reporting period): when both ends are given, the start may not lie after the end (or, when the end is excluded,
 * must lie before it). The refusal names the start field, so the API's 400 says `querystring.<from>` and a screen
 * shows it beside its "From" field. Ends are months, days (compared as written) or instants (compared as instants).
 */
export function orderedRange<T extends z.ZodObject>(
  schema: T,
  ends: { from: keyof z.output<T> & string; to: keyof z.output<T> & string; endExcluded?: boolean },
) {
  const { from, to, endExcluded = false } = ends;
  return schema.refine(
    (value) => {
      const start = (value as Record<string, unknown>)[from];
      const end = (value as Record<string, unknown>)[to];
      if (typeof start !== "string" || typeof end !== "string") return true;
      const order = start.includes("T") ? Date.parse(start) - Date.parse(end) : start.localeCompare(end);
      return endExcluded ? order < 0 : order <= 0;
    },
    {
      message: endExcluded ? rangeMessages.endExcluded : rangeMessages.endIncluded,
      path: [from],
    },
  );
}

/** What `orderedRange` says, for screens that check a range before the schema can (a half-typed field). */
export const rangeMessages = {
  endIncluded: "must not be after the end of the period",
  endExcluded: "must be before the end of the period",
} as const;

/**
 * Control characters: C0 (U+0000–U+001F, so TAB, LF and CR too), DEL and C1 (U+007F–U+009F), and the Unicode line
 * and paragraph separators (U+2028, U+2029), which some mail and SMS software also breaks lines at.
 */
const controlCharacter = /[\p{Cc}\u2028\u2029]/u;
export const singleLineMessage = "must be a single line, without line breaks, tabs or other control characters";

/**
 * A field meant to be one line (a name, a title, a label, an address line): text like it reaches e-mail subjects and
 * bodies, SMS and PDF headers verbatim, where a line break smuggled into a name ("Hosp⏎Bcc: …") would start a line of
 * its own. Refused, naming the field, rather than silently cleaned: the caller sees what was wrong. Surrounding
 * whitespace (a trailing newline from a paste) is trimmed first. Multi-line fields (notes, impressions) are plain
 * `z.string()` and keep their line breaks. Chain `.min`/`.max` on it as on any string.
 */
export const singleLineTextSchema = z
  .string()
  .trim()
  .refine((value) => !controlCharacter.test(value), { message: singleLineMessage, abort: true });

/** E.164: a plus, the country code and the number, no spaces (PRODUCT.md; spec §5 strips other characters). */
export const phoneSchema = z
  .string()
  .trim()
  .regex(/^\+[1-9]\d{6,14}$/, "must be a phone number in international form, e.g. +15555550100");

export const emailSchema = z.email().max(254);

/** Only http(s): a `javascript:` or `data:` link in a clinical tool is an attack, not a link. */
export const webUrlSchema = z
  .url({ protocol: /^https?$/, message: "must be a web address starting with http:// or https://" })
  .max(2048);

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return value.includes("/") || value === "UTC";
  } catch {
    return false;
  }
}

/** IANA zone names (America/Chicago); billing months and reports are cut in it. */
export const timeZoneSchema = z.string().trim().refine(isTimeZone, "must be an IANA time zone such as America/Chicago");

export const sortOrderSchema = z.enum(["asc", "desc"]);

/** `If-Match` carries the version the client last read; PUT/PATCH without it get 428, with a stale one 412. */
// Loose: the other headers (authorization, user-agent) must survive validation untouched.
export const ifMatchHeadersSchema = z.looseObject({ "if-match": z.string().optional() });

/** Who wrote a revision or made a change, as shown beside it. */
export const authorSchema = z.object({ sub: z.string().nullable(), username: z.string(), name: z.string().nullable() });
export type Author = z.infer<typeof authorSchema>;
