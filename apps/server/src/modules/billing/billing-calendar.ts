import { Temporal } from "temporal-polyfill";

/**
 * Calendar arithmetic of billing, free of the database. Months, days and weeks are cut in the client's IANA time
 * zone (PRODUCT.md §5): a month is local midnight of the 1st to local midnight of the next 1st, so its length in
 * hours follows the zone's daylight-saving changes (October 2026 in Berlin has 745 hours). Every window is
 * half-open, [start, end), like the time logs themselves: a log that ends exactly at midnight does not touch the
 * next day.
 *
 * Seconds are whole: the floor of the clipped interval's milliseconds / 1000. Time logs carry at most millisecond
 * precision, and billing never counts a second that was not fully logged; the price is that a log split across a
 * boundary may lose up to one second in total when both of its ends have fractions of a second (boundaries
 * themselves are whole seconds), which is below the 18 seconds one hundredth of an hour needs to show.
 */

/** A half-open interval [start, end) of instants. */
export type Window = { start: Date; end: Date };
export type Bucket = Window & { key: string; label: string };

const monthPattern = /^\d{4}-(0[1-9]|1[0-2])$/;
const datePattern = /^\d{4}-\d{2}-\d{2}$/;

const weekdayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"] as const;
const shortMonthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;
const monthNames = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

function parseMonth(month: string): Temporal.PlainYearMonth {
  // Temporal would also accept "2026-11-05" and quietly drop the day; a month must be exactly YYYY-MM.
  if (!monthPattern.test(month)) throw new RangeError(`not a month (YYYY-MM): ${month}`);
  return Temporal.PlainYearMonth.from(month);
}

function parseDate(date: string): Temporal.PlainDate {
  if (!datePattern.test(date)) throw new RangeError(`not a date (YYYY-MM-DD): ${date}`);
  return Temporal.PlainDate.from(date, { overflow: "reject" });
}

/**
 * The instant the day begins in the zone. Usually local midnight; in the few zones whose clocks jump over
 * midnight, Temporal gives the first instant of the day that exists.
 */
function startOfDay(date: Temporal.PlainDate, timeZone: string): Date {
  return new Date(date.toZonedDateTime(timeZone).epochMilliseconds);
}

function firstOfMonth(month: Temporal.PlainYearMonth): Temporal.PlainDate {
  return month.toPlainDate({ day: 1 });
}

function zoned(instant: Date, timeZone: string): Temporal.ZonedDateTime {
  return Temporal.Instant.fromEpochMilliseconds(instant.getTime()).toZonedDateTimeISO(timeZone);
}

function dayName(date: Temporal.PlainDate): string {
  return `${date.day} ${shortMonthNames[date.month - 1]} ${date.year}`;
}

function earlier(left: Temporal.PlainDate, right: Temporal.PlainDate): Temporal.PlainDate {
  return Temporal.PlainDate.compare(left, right) <= 0 ? left : right;
}

/** Local midnight of the 1st → local midnight of the next 1st. */
export function monthWindow(month: string, timeZone: string): Window {
  const parsed = parseMonth(month);
  return {
    start: startOfDay(firstOfMonth(parsed), timeZone),
    end: startOfDay(firstOfMonth(parsed.add({ months: 1 })), timeZone),
  };
}

/** The month (YYYY-MM) an instant falls in, on the zone's calendar. */
export function monthOf(instant: Date, timeZone: string): string {
  return zoned(instant, timeZone).toPlainDate().toPlainYearMonth().toString();
}

export function addMonths(month: string, count: number): string {
  return parseMonth(month).add({ months: count }).toString();
}

/** Every month from `from` to `to`, both included, ascending; none when `from` is after `to`. */
export function monthsBetween(from: string, to: string): string[] {
  const last = parseMonth(to);
  const months: string[] = [];
  for (
    let month = parseMonth(from);
    Temporal.PlainYearMonth.compare(month, last) <= 0;
    month = month.add({ months: 1 })
  )
    months.push(month.toString());
  return months;
}

/** Local midnight of `from` → local midnight of the day after `to` (`to` is included). */
export function periodWindow(from: string, to: string, timeZone: string): Window {
  return {
    start: startOfDay(parseDate(from), timeZone),
    end: startOfDay(parseDate(to).add({ days: 1 }), timeZone),
  };
}

/** One bucket per calendar day of the period: key YYYY-MM-DD, label "Mon 16 Nov 2026". */
export function dayBuckets(from: string, to: string, timeZone: string): Bucket[] {
  const last = parseDate(to);
  const buckets: Bucket[] = [];
  for (let day = parseDate(from); Temporal.PlainDate.compare(day, last) <= 0; day = day.add({ days: 1 })) {
    buckets.push({
      key: day.toString(),
      label: `${weekdayNames[day.dayOfWeek - 1]} ${dayName(day)}`,
      start: startOfDay(day, timeZone),
      end: startOfDay(day.add({ days: 1 }), timeZone),
    });
  }
  return buckets;
}

/**
 * ISO weeks (Monday to Sunday) of the period. The key is the ISO week-year and week ("2026-W01" begins on Monday
 * 29 Dec 2025), the label names the week's Monday even when the period starts later in that week; the first and
 * last buckets are clipped to the period.
 */
export function weekBuckets(from: string, to: string, timeZone: string): Bucket[] {
  const end = parseDate(to).add({ days: 1 });
  const buckets: Bucket[] = [];
  for (let day = parseDate(from); Temporal.PlainDate.compare(day, end) < 0; ) {
    const monday = day.subtract({ days: day.dayOfWeek - 1 });
    const nextMonday = monday.add({ days: 7 });
    const bucketEnd = earlier(nextMonday, end);
    buckets.push({
      key: `${monday.yearOfWeek}-W${String(monday.weekOfYear).padStart(2, "0")}`,
      label: `Week of ${dayName(monday)}`,
      start: startOfDay(day, timeZone),
      end: startOfDay(bucketEnd, timeZone),
    });
    day = bucketEnd;
  }
  return buckets;
}

/** Calendar months of the period: key YYYY-MM, label "November 2026"; the first and last are clipped to it. */
export function monthBuckets(from: string, to: string, timeZone: string): Bucket[] {
  const end = parseDate(to).add({ days: 1 });
  const buckets: Bucket[] = [];
  for (let day = parseDate(from); Temporal.PlainDate.compare(day, end) < 0; ) {
    const month = day.toPlainYearMonth();
    const bucketEnd = earlier(firstOfMonth(month.add({ months: 1 })), end);
    buckets.push({
      key: month.toString(),
      label: `${monthNames[month.month - 1]} ${month.year}`,
      start: startOfDay(day, timeZone),
      end: startOfDay(bucketEnd, timeZone),
    });
    day = bucketEnd;
  }
  return buckets;
}

/** Whole seconds of [log.start, log.end ?? now) inside the window; 0 when they do not meet. */
export function clipSeconds(log: { start: Date; end: Date | null }, window: Window, now: Date): number {
  const start = Math.max(log.start.getTime(), window.start.getTime());
  const end = Math.min((log.end ?? now).getTime(), window.end.getTime());
  return end > start ? Math.floor((end - start) / 1000) : 0;
}

/**
 * The months (in the zone) a log touches, ascending, with its whole seconds in each; a running log counts to
 * `now`. Months where it has no whole second are left out, so a log of no duration touches none.
 */
export function splitByMonth(
  log: { start: Date; end: Date | null },
  timeZone: string,
  now: Date,
): { month: string; seconds: number }[] {
  const end = (log.end ?? now).getTime();
  if (end <= log.start.getTime()) return [];
  // The last month is the one of the last millisecond: the end itself is not part of the log.
  return monthsBetween(monthOf(log.start, timeZone), monthOf(new Date(end - 1), timeZone))
    .map((month) => ({ month, seconds: clipSeconds(log, monthWindow(month, timeZone), now) }))
    .filter((part) => part.seconds > 0);
}

export function currentMonth(timeZone: string, now: Date): string {
  return monthOf(now, timeZone);
}
