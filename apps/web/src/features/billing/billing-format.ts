import { instantFormatIn } from "@vigil/contract";

/**
 * Money and hours arrive as decimal strings with 2 decimals ("1250.00"); they are shown as the server computed
 * them. Hours are grouped by string work; money is formatted by `Intl.NumberFormat` for the reader's locale and
 * the currency the server names, from the decimal string itself (never a float), with exactly 2 decimals, so a
 * total can never drift from the sum the server printed.
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

const moneyFormats = new Map<string, Intl.NumberFormat>();

function moneyFormat(currency: string): Intl.NumberFormat {
  let format = moneyFormats.get(currency);
  if (!format) {
    // The reader's locale (the browser's); the server computes to the cent, so always 2 decimals.
    format = new Intl.NumberFormat(undefined, {
      style: "currency",
      currency,
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    moneyFormats.set(currency, format);
  }
  return format;
}

/** "1234.50" in USD → "$1,234.50" (en-US), "-12.00" → "-$12.00"; "—" for no amount. */
export function formatMoney(value: string | null | undefined, currency: string): string {
  if (value === null || value === undefined) return "—";
  if (!/^-?\d+\.\d{2}$/.test(value)) return value;
  try {
    return moneyFormat(currency).format(value as `${number}`);
  } catch {
    // A code this browser does not know: the figure as sent, the code named.
    return `${formatDecimal(value)} ${currency}`;
  }
}

/** A difference to bill or credit, its sign always shown: "+$12.00", "-$3.50", "$0.00". */
export function formatMoneyDifference(value: string | null, currency: string): string {
  if (value === null) return "—";
  const text = formatMoney(value, currency);
  return value.startsWith("-") || /^0+\.00$/.test(value) ? text : `+${text}`;
}

export function formatHours(value: string): string {
  return formatDecimal(value);
}

/** An hourly rate as people say it: "$125.50 per hour". */
export function formatRate(hourlyRate: string, currency: string): string {
  return `${formatMoney(hourlyRate, currency)} per hour`;
}

const monthFormat = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });

/** "2026-11" → "November 2026" (a calendar month has no time zone of its own; UTC keeps it from shifting). */
export function formatMonth(month: string): string {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  if (!match) return month;
  return monthFormat.format(new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1)));
}

/**
 * A statement's period in the client's zone, the zone named once:
 * "Nov 1, 2026, 00:00 EDT to Dec 1, 2026, 00:00 EST (America/New_York)". The end is the next month's first
 * midnight, which the period does not include.
 */
export function formatPeriod(start: string, end: string, timeZone: string): string {
  // An unknown zone: say it in UTC rather than in the browser's zone, and say so.
  const known = instantFormatIn(timeZone);
  const format = known ?? (instantFormatIn("UTC") as Intl.DateTimeFormat);
  const zone = known ? timeZone : "UTC";
  const text = (iso: string) => {
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? iso : format.format(date);
  };
  return `${text(start)} to ${text(end)} (${zone})`;
}
