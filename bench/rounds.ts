/**
 * The arithmetic of the interleaved runs, free of I/O: the order the servers take their turns in each round, and a
 * figure measured once per round reduced to its median and its spread (the lowest and highest round). The baseline
 * alone moves 10–20% between runs minutes apart, so one run cannot tell a regression from drift; the median of
 * rounds taken side by side can, and the spread says how far one round's figure can be trusted.
 */

/** A figure measured once per round: its median, the lowest and highest rounds, and every round's value in order. */
export type Spread = { median: number; min: number; max: number; rounds: number[] };

/** The middle value (the mean of the two middle ones for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The spread of the rounds that measured the figure (undefined rounds, e.g. a server that answered 404, skipped). */
export function spreadOf(values: readonly (number | undefined | null)[]): Spread | undefined {
  const measured = values.filter((value): value is number => typeof value === "number" && Number.isFinite(value));
  if (measured.length === 0) return undefined;
  return { median: median(measured), min: Math.min(...measured), max: Math.max(...measured), rounds: measured };
}

/**
 * The order the sides take their turn at one endpoint in a round: a rotation of the list that moves on every second
 * round, read backwards in the odd rounds (ABCD, DCBA, BCDA, ADCB, CDAB…). Each two rounds run every pair of sides
 * in both orders, so neither of two sides reads the same database first more often than the other: the first reader
 * of a heavy read's pages finds them outside PostgreSQL's buffers, the second inside. (A plain rotation of four sides
 * ran the first before the second in three rounds of four.) With two sides it is A B, B A, B A, A B…
 */
export function interleavingOrder<T>(sides: readonly T[], round: number): T[] {
  if (sides.length === 0) return [];
  const shift = Math.floor(round / 2) % sides.length;
  const rotated = [...sides.slice(shift), ...sides.slice(0, shift)];
  return round % 2 === 1 ? rotated.reverse() : rotated;
}

/** Every round's order, for a schedule printed before the runs. */
export function interleavingSchedule<T>(sides: readonly T[], rounds: number): T[][] {
  return Array.from({ length: rounds }, (_, round) => interleavingOrder(sides, round));
}

/** A target is met when the median of its rounds meets it: a lower bound ("at least") or an upper one. */
export function meetsByMedian(spread: Spread, limit: number, bound: "at-least" | "at-most"): boolean {
  return bound === "at-least" ? spread.median >= limit : spread.median <= limit;
}

/**
 * `79% (73–85%, 5 rounds)`: the median then the lowest and highest round, each formatted by `format`; one round is
 * just its figure.
 */
export function describeSpread(spread: Spread, format: (value: number) => string): string {
  if (spread.rounds.length === 1) return `${format(spread.median)} (1 round)`;
  return `${format(spread.median)} (${format(spread.min)}–${format(spread.max)}, ${spread.rounds.length} rounds)`;
}

/** The spread alone, `73–85%`, for a table's own column. */
export function describeRange(spread: Spread, format: (value: number) => string): string {
  return spread.rounds.length === 1 ? "–" : `${format(spread.min)}–${format(spread.max)}`;
}
