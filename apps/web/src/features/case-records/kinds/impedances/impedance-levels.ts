import { type Electrode, recommendedImpedanceKohm } from "@vigil/contract";

/**
 * How an electrode's impedance reads (DOMAIN.md §1.2): good below the recommended 5 kΩ, caution from there up to
 * and including the protocol's threshold, flagged above it.
 */
export type ImpedanceLevel = "good" | "caution" | "flagged";

export function impedanceLevel(kohm: number, thresholdKohm: number): ImpedanceLevel {
  if (kohm > thresholdKohm) return "flagged";
  if (kohm >= recommendedImpedanceKohm) return "caution";
  return "good";
}

export const impedanceLevelLabels: Record<ImpedanceLevel, string> = {
  good: "Good",
  caution: "Caution",
  flagged: "Flagged",
};

/** The palette colour of each level; the word and icon beside it say the same for those who cannot see colour. */
export const impedanceLevelColors = {
  good: "success",
  caution: "warning",
  flagged: "error",
} as const satisfies Record<ImpedanceLevel, string>;

/** What each level means with this threshold, for legends and help text. */
export function impedanceLevelRanges(thresholdKohm: number): Record<ImpedanceLevel, string> {
  return {
    good: `below ${recommendedImpedanceKohm} kΩ`,
    caution: `${recommendedImpedanceKohm}–${thresholdKohm} kΩ`,
    flagged: `above ${thresholdKohm} kΩ`,
  };
}

/**
 * Where each electrode sits on a head seen from above, nose at the top (rows front to back, columns left to
 * right, ears outside the head). Reading order stays the montage order of the contract's list.
 */
export const electrodePositions: Record<Electrode, { row: number; column: number }> = {
  Fp1: { row: 1, column: 3 },
  Fp2: { row: 1, column: 5 },
  F7: { row: 2, column: 2 },
  F3: { row: 2, column: 3 },
  Fz: { row: 2, column: 4 },
  F4: { row: 2, column: 5 },
  F8: { row: 2, column: 6 },
  T7: { row: 3, column: 2 },
  C3: { row: 3, column: 3 },
  Cz: { row: 3, column: 4 },
  C4: { row: 3, column: 5 },
  T8: { row: 3, column: 6 },
  P7: { row: 4, column: 2 },
  P3: { row: 4, column: 3 },
  Pz: { row: 4, column: 4 },
  P4: { row: 4, column: 5 },
  P8: { row: 4, column: 6 },
  O1: { row: 5, column: 3 },
  O2: { row: 5, column: 5 },
  A1: { row: 3, column: 1 },
  A2: { row: 3, column: 7 },
};

/** "4.9" for a reading: at most two decimals. */
export function formatKohm(kohm: number): string {
  return String(Math.round(kohm * 100) / 100);
}
