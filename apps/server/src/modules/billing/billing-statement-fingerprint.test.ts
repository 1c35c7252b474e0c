import { createHash } from "node:crypto";
import type { AppliedRate, StatementCase } from "@vigil/contract";
import { describe, expect, it } from "vitest";
import { fingerprintOf } from "./billing-statements-service.js";

/** The digest as first defined: one JSON text of every figure shown, hashed at once (stored statements keep it). */
function fingerprintAsStored(figures: {
  currency: string;
  month: string;
  rate: AppliedRate | null;
  cases: readonly StatementCase[];
}): string {
  const content = JSON.stringify([
    figures.currency,
    figures.month,
    figures.rate,
    figures.cases.map((line) => [
      line.caseId,
      line.caseNumber,
      line.patientName,
      line.hours,
      line.amount,
      line.logCount,
      line.cpt,
    ]),
  ]);
  return createHash("sha256").update(content).digest("base64url").slice(0, 32);
}

const line = (index: number, amount: string | null): StatementCase => ({
  caseId: `00000000-0000-4000-8000-${String(index).padStart(12, "0")}`,
  caseNumber: `C-2026-${index}`,
  patientName: index % 2 === 0 ? "Zoë Ångström" : 'O"Brien, \\ Pat',
  stage: "closed",
  hours: "26.50",
  amount,
  logCount: index,
  running: false,
  cpt: {
    recordingHours: "26.50",
    videoPercent: 100,
    lines: [
      {
        code: "95716",
        units: 1,
        component: "technical",
        description: "Video EEG, each 12–26 h increment",
        basis: "1 increment of 12–26 h (24.00 h + 2.50 h), video 100%",
      },
    ],
    warnings: [{ id: "review-check-gap", message: "More than 2 h between review checks (§2.3) — 😴 at 03:00" }],
  },
});

const rate: AppliedRate = { hourlyRate: "125.00", fromMonth: "2026-10", inherited: true };

describe("a statement's fingerprint", () => {
  it("is the digest of the one JSON text stored statements were fingerprinted with", () => {
    for (const figures of [
      { currency: "USD", month: "2026-11", rate, cases: [line(1, "3312.50"), line(2, "3312.50"), line(3, null)] },
      { currency: "EUR", month: "2026-01", rate: null, cases: [line(4, null)] },
      { currency: "USD", month: "2026-02", rate, cases: [] },
      { currency: "USD", month: "2026-11", rate, cases: Array.from({ length: 300 }, (_, i) => line(i, "1.00")) },
    ]) {
      expect(fingerprintOf(figures)).toBe(fingerprintAsStored(figures));
    }
  });

  it("changes when any figure shown changes", () => {
    const figures = { currency: "USD", month: "2026-11", rate, cases: [line(1, "3312.50"), line(2, "3312.50")] };
    const base = fingerprintOf(figures);
    const changedCpt = structuredClone(figures);
    (changedCpt.cases[1] as StatementCase).cpt.warnings = [];
    expect(fingerprintOf(changedCpt)).not.toBe(base);
    expect(fingerprintOf({ ...figures, cases: [...figures.cases].reverse() })).not.toBe(base);
    expect(fingerprintOf({ ...figures, rate: { ...rate, hourlyRate: "125.01" } })).not.toBe(base);
  });
});
