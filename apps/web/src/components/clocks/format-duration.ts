/**
 * The watch's one way of writing a duration (PRODUCT.md §10): the case's clocks card, the board, the home page and
 * the service-level report and its CSV all write with it. Under an hour it shows seconds ("45 s", "1 min 15 s"), so a
 * step 15 s past a 1-minute window never reads "1 min" beside "late by 1 min"; from an hour on, whole minutes. Every
 * part is rounded up: a late step never reads as in time, and "late by" is never 0.
 */
export function formatDuration(seconds: number): string {
  const whole = Math.ceil(Math.max(0, seconds));
  if (whole < 60) return `${whole} s`;
  if (whole < 3600) return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, "0")} s`;
  const minutes = Math.ceil(whole / 60);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = String(minutes % 60).padStart(2, "0");
  return days > 0 ? `${days} d ${hours} h ${rest} min` : `${hours} h ${rest} min`;
}

/** A duration in decimal minutes for a spreadsheet ("1.25" for 75 s): numbers that sum and sort, unit in the header. */
export function decimalMinutes(seconds: number): string {
  return String(Math.round((seconds / 60) * 100) / 100);
}

/**
 * "1 min 15 s left" / "overdue by 15 s" / "3 h 05 min left": a running clock's countdown at `now`, by `formatDuration`.
 * Screens renew `now` every second while a clock under an hour counts down.
 */
export function countdownText(dueAt: string, now: number): string {
  const left = Date.parse(dueAt) - now;
  const span = formatDuration(Math.abs(left) / 1000);
  return left >= 0 ? `${span} left` : `overdue by ${span}`;
}
