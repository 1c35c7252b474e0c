import type { AppliedRate } from "@vigil/contract";

const monthWords = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", year: "numeric", month: "long" });

/** "2026-11" → "November 2026" (a client's calendar month; the same words everywhere, so read in UTC). */
export function formatMonth(month: string): string {
  const date = new Date(`${month}-01T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? month : monthWords.format(date);
}

/** "125.00 per hour", "125.00 per hour (inherited from October 2026)"; null → "No rate". */
export function rateWords(rate: AppliedRate | null): string {
  if (!rate) return "No rate";
  return `${rate.hourlyRate} per hour${rate.inherited ? ` (inherited from ${formatMonth(rate.fromMonth)})` : ""}`;
}
