/**
 * Money and hours arrive as decimal strings with 2 decimals ("1250.00"); they are shown as the server computed
 * them. Formatting only groups the whole part's digits (string work, never a float), so a total can never drift
 * from the sum the server printed.
 */
function groupDigits(whole: string): string {
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** "1234567.50" → "1,234,567.50", "-1200.00" → "-1,200.00"; anything else is shown as it came. */
export function formatDecimal(value: string): string {
  const match = /^(-?)(\d+)(\.\d+)?$/.exec(value);
  if (!match) return value;
  const [, sign = "", whole = "", fraction = ""] = match;
  return `${sign}${groupDigits(whole)}${fraction}`;
}

export function formatMoney(value: string | null | undefined): string {
  return value === null || value === undefined ? "—" : formatDecimal(value);
}

export function formatHours(value: string): string {
  return formatDecimal(value);
}

/** An hourly rate as people say it: "125.50 per hour". */
export function formatRate(hourlyRate: string): string {
  return `${formatDecimal(hourlyRate)} per hour`;
}

const monthFormat = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });

/** "2026-11" → "November 2026" (a calendar month has no time zone of its own; UTC keeps it from shifting). */
export function formatMonth(month: string): string {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  if (!match) return month;
  return monthFormat.format(new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1)));
}

const periodFormat = (timeZone: string) =>
  new Intl.DateTimeFormat("en-US", {
    timeZone,
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZoneName: "short",
  });

/**
 * A statement's period in the client's zone, the zone named once:
 * "Nov 1, 2026, 00:00 EDT to Dec 1, 2026, 00:00 EST (America/New_York)". The end is the next month's first
 * midnight, which the period does not include.
 */
export function formatPeriod(start: string, end: string, timeZone: string): string {
  let format: Intl.DateTimeFormat;
  let zone = timeZone;
  try {
    format = periodFormat(timeZone);
  } catch {
    // An unknown zone: say it in UTC rather than in the browser's zone, and say so.
    format = periodFormat("UTC");
    zone = "UTC";
  }
  const text = (iso: string) => {
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? iso : format.format(date);
  };
  return `${text(start)} to ${text(end)} (${zone})`;
}
