import { describe, expect, it } from "vitest";
import { impedanceDue, judgeImpedance } from "./impedance-rules.js";

const values = [
  { electrode: "Fp1", kohm: 2 },
  { electrode: "Fp2", kohm: 5 },
  { electrode: "C3", kohm: 10 },
  { electrode: "O1", kohm: 10.5 },
] as const;

describe("judgeImpedance", () => {
  it("flags electrodes above the threshold and cautions from 5 kΩ up to it", () => {
    expect(judgeImpedance(values, 10)).toEqual({ flagged: ["O1"], caution: ["Fp2", "C3"] });
  });

  it("leaves no caution band when the threshold is 5 kΩ or less", () => {
    expect(judgeImpedance(values, 5)).toEqual({ flagged: ["C3", "O1"], caution: [] });
    expect(judgeImpedance(values, 3)).toEqual({ flagged: ["Fp2", "C3", "O1"], caution: [] });
  });
});

describe("impedanceDue", () => {
  const at = (hour: number) => new Date(Date.UTC(2026, 0, 1, hour));
  const base = { stage: "monitoring" as const, recordingStartedAt: at(0), monitoringStartedAt: null, intervalHours: 8 };

  it("counts from the last check, else from the recording start", () => {
    expect(impedanceDue({ ...base, lastCheckedAt: at(6), now: at(12) })).toEqual({ dueAt: at(14), overdue: false });
    expect(impedanceDue({ ...base, lastCheckedAt: null, now: at(12) })).toEqual({ dueAt: at(8), overdue: true });
    expect(
      impedanceDue({ ...base, recordingStartedAt: null, monitoringStartedAt: at(2), lastCheckedAt: null, now: at(9) }),
    ).toEqual({ dueAt: at(10), overdue: false });
  });

  it("has nothing due outside monitoring", () => {
    expect(impedanceDue({ ...base, stage: "preview", lastCheckedAt: null, now: at(30) })).toEqual({
      dueAt: null,
      overdue: false,
    });
  });
});
