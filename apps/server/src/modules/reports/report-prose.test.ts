import { type AcnsFinding, acnsFindingSchema, interpretationDataSchema } from "@vigil/contract";
import { describe, expect, it } from "vitest";
import { acnsTermOf, describeBackground, describeFinding, describeFindings, describeSeizures } from "./report-prose.js";

const finding = (overrides: Partial<AcnsFinding>): AcnsFinding =>
  acnsFindingSchema.parse({ location: "L", pattern: "PD", prevalence: "frequent", ...overrides });

const background = (overrides: Record<string, unknown> = {}) =>
  interpretationDataSchema.parse({
    periodFrom: "2026-11-05T08:00:00Z",
    periodTo: "2026-11-06T08:00:00Z",
    background: { ...overrides },
  }).background;

describe("the ACNS 2021 terms written as prose", () => {
  it("names each location and pattern with its standard abbreviation", () => {
    expect(acnsTermOf(finding({ location: "G", pattern: "PD" }))).toBe("GPDs");
    expect(acnsTermOf(finding({ location: "L", pattern: "RDA" }))).toBe("LRDA");
    expect(acnsTermOf(finding({ location: "BI", pattern: "PD" }))).toBe("BIPDs");
    expect(acnsTermOf(finding({ location: "UI", pattern: "RDA" }))).toBe("UIRDA");
    expect(acnsTermOf(finding({ location: "Mf", pattern: "PD" }))).toBe("MfPDs");
    expect(acnsTermOf(finding({ location: "G", pattern: "SW" }))).toBe("GSW");
    expect(acnsTermOf(finding({ location: "L", pattern: "PD", plusModifier: "+F" }))).toBe("LPDs+F");
    expect(acnsTermOf(finding({ location: "G", pattern: "RDA", plusModifier: "+FS" }))).toBe("GRDA+FS");
  });

  it("says a minimal finding as prevalence, location and pattern, and nothing that was not recorded", () => {
    expect(describeFinding(finding({}))).toBe(
      "Frequent (10–49% of the record) lateralized periodic discharges (LPDs).",
    );
  });

  it("adds the plus modifier in words, the frequency, duration, evolution and stimulus induction when recorded", () => {
    const text = describeFinding(
      finding({
        prevalence: "abundant",
        plusModifier: "+F",
        frequencyHz: 1.5,
        duration: "brief",
        evolution: "evolving",
        stimulusInduced: true,
        notes: "maximal over the left temporal region",
      }),
    );
    expect(text).toBe(
      "Abundant (50–89% of the record) lateralized periodic discharges with superimposed fast activity (LPDs+F), at a typical frequency of 1.5 Hz, brief (10–59 s) in duration, evolving, stimulus-induced (SI). Maximal over the left temporal region.",
    );
  });

  it("words extreme delta brush and each other modifier, and a fluctuating pattern", () => {
    expect(describeFinding(finding({ location: "G", pattern: "RDA", plusModifier: "EDB" }))).toContain(
      "generalized rhythmic delta activity with extreme delta brush (GRDA with EDB)",
    );
    expect(describeFinding(finding({ plusModifier: "+R" }))).toContain("with superimposed rhythmic activity (LPDs+R)");
    expect(describeFinding(finding({ plusModifier: "+S" }))).toContain(
      "with superimposed sharp waves or spikes (LPDs+S)",
    );
    expect(describeFinding(finding({ plusModifier: "+FR" }))).toContain("fast and rhythmic activity (LPDs+FR)");
    expect(describeFinding(finding({ evolution: "fluctuating" }))).toMatch(/\(LPDs\), fluctuating\.$/);
    expect(describeFinding(finding({ evolution: "static" }))).not.toMatch(/static/);
    expect(describeFinding(finding({ frequencyHz: 0 }))).toContain("at a typical frequency of 0 Hz");
  });

  it("says so when no pattern was recorded", () => {
    expect(describeFindings([])).toEqual([
      "No periodic or rhythmic patterns or epileptiform discharges were recorded.",
    ]);
    expect(describeFindings([finding({}), finding({ location: "G" })])).toHaveLength(2);
  });

  it("writes the background from whichever of its fields were recorded", () => {
    expect(describeBackground(background())).toBe("");
    expect(
      describeBackground(
        background({
          continuity: "nearly-continuous",
          symmetry: "symmetric",
          predominantFrequency: "theta",
          pdrHz: 7.5,
          voltage: "low",
          reactivity: "present",
          stateChanges: "absent",
          notes: "intermittent muscle artifact",
        }),
      ),
    ).toBe(
      "The background is nearly continuous and symmetric, with predominantly theta frequencies. A posterior dominant rhythm of 7.5 Hz is present. Voltage is low (most activity below 20 µV). The background is reactive to stimulation. No state changes are seen. Intermittent muscle artifact.",
    );
    expect(describeBackground(background({ predominantFrequency: "delta" }))).toBe(
      "The background shows predominantly delta frequencies.",
    );
    expect(describeBackground(background({ continuity: "burst-suppression", reactivity: "not-tested" }))).toBe(
      "The background is burst-suppression. Reactivity was not tested.",
    );
  });

  it("counts seizures in words, singular and plural, and says when none were recorded", () => {
    const seizures = (classification: string, count: number | null, description = "") =>
      describeSeizures({ classification: classification as "none", count, description });
    expect(seizures("none", null)).toBe("No seizures were recorded.");
    expect(seizures("ESz", 1)).toBe("1 electrographic seizure (ESz) was recorded.");
    expect(seizures("ESz", 3, "each arising from the left temporal region")).toBe(
      "3 electrographic seizures (ESz) were recorded. Each arising from the left temporal region.",
    );
    expect(seizures("ECSz", null)).toBe("Electroclinical seizures (ECSz) were recorded.");
    expect(seizures("ESE", 1)).toBe("1 episode of electrographic status epilepticus (ESE) was recorded.");
    expect(seizures("IIC", null)).toBe("Patterns on the ictal-interictal continuum (IIC) were seen.");
  });
});
