import type { AppliedRate } from "@vigil/contract";
import Big from "big.js";
import { type SQL, sql } from "drizzle-orm";

/**
 * Money and hours as decimal strings (PRODUCT.md §5, the contract's billing schemas), never a binary float. Hours
 * come from whole seconds; an amount is the hours a statement SHOWS (already rounded) × the rate, so a reader can
 * redo every line with a calculator and get the same cents. Lines are computed in whole hundredths and cents
 * (BigInt where a product may pass 2^53): a 12-month overview turns ~50,000 case lines into figures; sums and
 * differences of printed figures use big.js.
 */

const cents = 2;

function toCents(value: Big): string {
  return value.round(cents, Big.roundHalfUp).toFixed(cents);
}

/** Seconds / 36 hundredths of an hour, rounded half-up: 5400 → 150, 18 → 1 (0.5), 17 → 0. */
export function hundredthsFromSeconds(seconds: number): number {
  if (!Number.isSafeInteger(seconds) || seconds < 0)
    throw new RangeError(`seconds must be a whole number ≥ 0: ${seconds}`);
  return Math.floor((seconds + 18) / 36);
}

/**
 * `hundredthsFromSeconds` in SQL, for reads that total many lines in the database (the overview's months): the same
 * integer rule (billing-money.test.ts checks the two agree), on whole non-negative seconds.
 */
export function hundredthsFromSecondsSql(seconds: SQL): SQL {
  return sql`((${seconds})::bigint + 18) / 36`;
}

/** `amountCentsFor` in SQL: exact numeric, the quotient truncated as BigInt division truncates (both ≥ 0). */
export function amountCentsForSql(hundredths: SQL, rateCents: SQL): SQL {
  return sql`div((${hundredths})::numeric * (${rateCents}) + 50, 100)`;
}

/** Seconds / 3600, rounded half-up to 2 decimals: 5400 → "1.50", 18 → "0.01" (0.005), 17 → "0.00". */
export function hoursFromSeconds(seconds: number): string {
  return formatHundredths(hundredthsFromSeconds(seconds));
}

/** "125.50" → 12550n; a stored amount has at most 2 decimals. */
export function centsOf(decimal: string): bigint {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(decimal);
  if (!match) throw new RangeError(`not an amount with at most 2 decimals: ${decimal}`);
  return BigInt(match[1] as string) * 100n + BigInt((match[2] ?? "").padEnd(2, "0"));
}

/** Hundredths of an hour × an hourly rate in cents, rounded half-up to the cent. */
export function amountCentsFor(hundredths: number, rateCents: bigint): bigint {
  return (BigInt(hundredths) * rateCents + 50n) / 100n;
}

/** Whole hundredths (or cents) as the 2-decimal string the contract carries: 150 → "1.50". */
export function formatHundredths(value: number | bigint): string {
  const whole = BigInt(value);
  return `${whole / 100n}.${String(whole % 100n).padStart(2, "0")}`;
}

/** Signed cents as the contract's money string: -150 → "-1.50" (the ledger's figures may be negative). */
export function moneyOfCents(value: number | bigint): string {
  const whole = BigInt(value);
  return whole < 0n ? `-${formatHundredths(-whole)}` : formatHundredths(whole);
}

/** A money string ("1250.50", "-3.00") as a number of cents; exact for any amount under 2^53 cents. */
export function centsOfMoney(decimal: string): number {
  return decimal.startsWith("-") ? -Number(centsOf(decimal.slice(1))) : Number(centsOf(decimal));
}

/** The exact sum, with 2 decimals ("0.00" for none). */
export function sumDecimals(values: readonly string[]): string {
  return toCents(values.reduce((sum, value) => sum.plus(value), new Big(0)));
}

/** `value − minus`, exactly, with 2 decimals ("-1.50"): what changed between two printed figures. */
export function differenceOf(value: string, minus: string): string {
  return toCents(new Big(value).minus(minus));
}

/** A rate as typed ("125", "125.5") in the stored form ("125.00", "125.50"); never rounds a third decimal away. */
export function normalizeRate(input: string): string {
  const trimmed = input.trim();
  if (!/^\d+(\.\d+)?$/.test(trimmed)) throw new RangeError(`not an amount: ${input}`);
  const value = new Big(trimmed);
  if (!value.eq(value.round(cents, Big.roundDown))) throw new RangeError(`more than 2 decimals: ${input}`);
  return value.toFixed(cents);
}

/**
 * The rate that applies to a month: its own, else the latest earlier month's (inherited: a rate holds until the
 * next month that sets one), else null (the month is flagged, never billed at zero). `ownRates` in any order;
 * a later month's rate never applies backwards.
 */
export function rateForMonth(
  month: string,
  ownRates: readonly { month: string; hourlyRate: string }[],
): AppliedRate | null {
  let applied: { month: string; hourlyRate: string } | undefined;
  // YYYY-MM strings sort as the months they name.
  for (const rate of ownRates) if (rate.month <= month && (!applied || rate.month > applied.month)) applied = rate;
  if (!applied) return null;
  return {
    hourlyRate: new Big(applied.hourlyRate).toFixed(cents),
    fromMonth: applied.month,
    inherited: applied.month !== month,
  };
}

export const roundingNote =
  "Hours per case are the exact logged seconds rounded half-up to 2 decimals; each amount is those rounded hours × the hourly rate, rounded half-up to the cent; totals are the sums of the rounded lines.";

/**
 * Tax on an amount at a percentage ("8.875"), rounded half-up to the cent, exactly (big.js): 1000.00 at 8.875 % →
 * "88.75"; 0.05 at 10 % → "0.01" (0.005 rounds up).
 */
export function taxOf(amount: string, ratePercent: string | null): string {
  if (ratePercent === null) return "0.00";
  return toCents(new Big(amount).times(ratePercent).div(100));
}

/** `value + plus`, exactly, with 2 decimals. */
export function plusOf(value: string, plus: string): string {
  return toCents(new Big(value).plus(plus));
}

/** A stored percentage ("8.8750") as typed back: trailing zeros of the fraction dropped ("8.875", "8"). */
export function percentText(stored: string): string {
  return new Big(stored).toString();
}
