import {
  type AcnsFinding,
  type acnsContinuities,
  acnsLabels,
  type acnsPredominantFrequencies,
  type acnsReactivities,
  type acnsStateChanges,
  type acnsSymmetries,
  type acnsVoltages,
  type InterpretationData,
  seizureClassifications,
} from "@vigil/contract";

type Background = InterpretationData["background"];
type SeizureClassification = (typeof seizureClassifications)[number];

/** The contract's words for an ACNS term (findings), the term itself when it has none. */
export function acnsLabel(term: string): string {
  return acnsLabels[term] ?? term;
}

/**
 * Background terms in words. They are kept here rather than read from `acnsLabels`, where "continuous" is the
 * prevalence category (≥90%), not the continuity of the background. Definitions: ACNS 2021 (DOMAIN.md §1.3).
 */
export const continuityLabels: Record<(typeof acnsContinuities)[number], string> = {
  continuous: "Continuous",
  "nearly-continuous": "Nearly continuous (<10% attenuation or suppression)",
  discontinuous: "Discontinuous (10–49% attenuation or suppression)",
  "burst-suppression": "Burst-suppression / burst-attenuation (≥50%)",
  suppression: "Suppression (whole record <10 µV)",
};
export const symmetryLabels: Record<(typeof acnsSymmetries)[number], string> = {
  symmetric: "Symmetric",
  "mild-asymmetry": "Mild asymmetry",
  "marked-asymmetry": "Marked asymmetry",
};
export const predominantFrequencyLabels: Record<(typeof acnsPredominantFrequencies)[number], string> = {
  delta: "Delta (<4 Hz)",
  theta: "Theta (4 to <8 Hz)",
  alpha: "Alpha (8–13 Hz)",
  beta: "Beta (>13 Hz)",
};
export const voltageLabels: Record<(typeof acnsVoltages)[number], string> = {
  normal: "Normal (>20 µV)",
  low: "Low (10–20 µV)",
  suppressed: "Suppressed (<10 µV)",
};
export const reactivityLabels: Record<(typeof acnsReactivities)[number], string> = {
  present: "Present",
  absent: "Absent",
  unclear: "Unclear",
  "not-tested": "Not tested",
};
export const stateChangeLabels: Record<(typeof acnsStateChanges)[number], string> = {
  "present-normal": "Present (normal)",
  "present-abnormal": "Present (abnormal)",
  absent: "Absent",
};

/** The background's select fields, in report order, with their labels and vocabularies. */
export const backgroundSelects = [
  { key: "continuity", label: "Continuity", options: continuityLabels },
  { key: "symmetry", label: "Symmetry", options: symmetryLabels },
  { key: "predominantFrequency", label: "Predominant frequency", options: predominantFrequencyLabels },
  { key: "voltage", label: "Voltage", options: voltageLabels },
  { key: "reactivity", label: "Reactivity", options: reactivityLabels },
  { key: "stateChanges", label: "State changes", options: stateChangeLabels },
] as const satisfies readonly {
  key: Exclude<keyof Background, "pdrHz" | "notes">;
  label: string;
  options: Record<string, string>;
}[];

export const seizureClassificationLabels: Record<SeizureClassification, string> = {
  ...(Object.fromEntries(seizureClassifications.map((value) => [value, acnsLabel(value)])) as Record<
    SeizureClassification,
    string
  >),
  none: "No seizures",
};

/** The ACNS 2021 criteria of each classification, shown under the choice so it is made by the definition. */
export const seizureCriteria: Record<SeizureClassification, string> = {
  none: "No pattern meets the criteria of a seizure, status epilepticus or the ictal-interictal continuum.",
  ESz: "Epileptiform discharges averaging >2.5 Hz for ≥10 s, or any pattern with definite evolution lasting ≥10 s.",
  ECSz: "Any EEG pattern with a definite clinical correlate time-locked to it (any duration), or EEG and clinical improvement with a parenteral antiseizure medication.",
  ESE: "An electrographic seizure for ≥10 continuous minutes, or for ≥20% of any 60-minute period of recording.",
  ECSE: "An electroclinical seizure for ≥10 continuous minutes or ≥20% of any 60-minute period; with bilateral tonic-clonic activity, ≥5 continuous minutes.",
  IIC: "PD or SW averaging >1 to 2.5 Hz over 10 s; or 0.5–1 Hz with a plus modifier or fluctuation; or lateralized RDA >1 Hz for ≥10 s with a plus modifier or fluctuation — not qualifying as ESz or ESE.",
};

export const reportTypeLabels: Record<InterpretationData["reportType"], string> = {
  daily: "Daily report (each 24-h period)",
  summary: "Summary report (whole study)",
};

/** ACNS shorthand for a finding: "LPD+F", "GRDA", "BIPD", "GRDA with EDB". */
export function findingShorthand(finding: Pick<AcnsFinding, "location" | "pattern" | "plusModifier">): string {
  const term = `${finding.location}${finding.pattern}`;
  if (finding.plusModifier === "none") return term;
  return finding.plusModifier === "EDB" ? `${term} with EDB` : `${term}${finding.plusModifier}`;
}

/** A finding in words, as a report line: "LPD+F: Lateralized (L) periodic discharges (PD), frequent, brief, 1.5 Hz". */
export function describeFinding(finding: AcnsFinding): string {
  const parts = [
    `${acnsLabel(finding.location)} ${acnsLabel(finding.pattern)}`,
    finding.plusModifier === "none" ? undefined : acnsLabel(finding.plusModifier),
    acnsLabel(finding.prevalence),
    finding.duration ? acnsLabel(finding.duration) : undefined,
    finding.frequencyHz === null ? undefined : `${finding.frequencyHz} Hz`,
    acnsLabel(finding.evolution),
    finding.stimulusInduced ? "stimulus-induced (SI)" : undefined,
  ].filter((part): part is string => Boolean(part));
  return `${findingShorthand(finding)}: ${parts.join(", ")}`;
}
