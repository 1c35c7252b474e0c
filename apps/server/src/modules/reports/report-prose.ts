import type { AcnsFinding, InterpretationData } from "@vigil/contract";

/**
 * The ACNS 2021 structured findings of an interpretation written as the sentences a neurologist would write, for the
 * PDF and the FHIR conclusion: the standardized term is kept in brackets (LPDs+F, GRDA) so a reader who thinks in
 * the abbreviations finds them. Only what was recorded is said: an unset field adds nothing.
 */

const locationWords: Record<AcnsFinding["location"], string> = {
  G: "generalized",
  L: "lateralized",
  BI: "bilateral independent",
  UI: "unilateral independent",
  Mf: "multifocal",
};

const patternWords: Record<AcnsFinding["pattern"], string> = {
  PD: "periodic discharges",
  RDA: "rhythmic delta activity",
  SW: "spike-and-wave or sharp-and-wave discharges",
};

const plusWords: Record<AcnsFinding["plusModifier"], string> = {
  none: "",
  "+F": "with superimposed fast activity",
  "+R": "with superimposed rhythmic activity",
  "+S": "with superimposed sharp waves or spikes",
  "+FR": "with superimposed fast and rhythmic activity",
  "+FS": "with superimposed fast activity and sharp waves or spikes",
  EDB: "with extreme delta brush",
};

const prevalenceWords: Record<AcnsFinding["prevalence"], string> = {
  continuous: "Continuous (≥90% of the record)",
  abundant: "Abundant (50–89% of the record)",
  frequent: "Frequent (10–49% of the record)",
  occasional: "Occasional (1–9% of the record)",
  rare: "Rare (<1% of the record)",
};

const durationWords: Record<NonNullable<AcnsFinding["duration"]>, string> = {
  "very-long": "very long (≥1 h)",
  long: "long (5–59 min)",
  intermediate: "intermediate (1–4.9 min)",
  brief: "brief (10–59 s)",
  "very-brief": "very brief (<10 s)",
};

/** The ACNS 2021 abbreviation: main term 1 + main term 2 (+ modifier), e.g. LPDs+F, GRDA, BIPDs, GSW. */
export function acnsTermOf(finding: Pick<AcnsFinding, "location" | "pattern" | "plusModifier">): string {
  const pattern = finding.pattern === "PD" ? "PDs" : finding.pattern;
  const plus = finding.plusModifier === "none" || finding.plusModifier === "EDB" ? "" : finding.plusModifier;
  return `${finding.location}${pattern}${plus}`;
}

function sentence(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return "";
  const capitalised = trimmed[0]?.toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}

function formatHz(value: number): string {
  return `${Number(value.toFixed(2))} Hz`;
}

/** One finding as a sentence (and its notes after it). */
export function describeFinding(finding: AcnsFinding): string {
  const parts = [
    `${prevalenceWords[finding.prevalence]} ${locationWords[finding.location]} ${patternWords[finding.pattern]}`,
  ];
  if (finding.plusModifier !== "none") parts.push(plusWords[finding.plusModifier]);
  let text = `${parts.join(" ")} (${acnsTermOf(finding)}${finding.plusModifier === "EDB" ? " with EDB" : ""})`;
  const qualities: string[] = [];
  if (finding.frequencyHz !== null) qualities.push(`at a typical frequency of ${formatHz(finding.frequencyHz)}`);
  if (finding.duration !== null) qualities.push(`${durationWords[finding.duration]} in duration`);
  if (finding.evolution !== "static") qualities.push(finding.evolution);
  if (finding.stimulusInduced) qualities.push("stimulus-induced (SI)");
  if (qualities.length > 0) text += `, ${qualities.join(", ")}`;
  return [sentence(text), sentence(finding.notes)].filter(Boolean).join(" ");
}

const continuityWords: Record<string, string> = {
  continuous: "continuous",
  "nearly-continuous": "nearly continuous",
  discontinuous: "discontinuous",
  "burst-suppression": "burst-suppression",
  suppression: "suppressed",
};
const symmetryWords: Record<string, string> = {
  symmetric: "symmetric",
  "mild-asymmetry": "mildly asymmetric",
  "marked-asymmetry": "markedly asymmetric",
};
const voltageWords: Record<string, string> = {
  normal: "Voltage is normal",
  low: "Voltage is low (most activity below 20 µV)",
  suppressed: "Voltage is suppressed (all activity below 10 µV)",
};
const reactivityWords: Record<string, string> = {
  present: "The background is reactive to stimulation",
  absent: "The background is not reactive to stimulation",
  unclear: "Reactivity to stimulation is unclear",
  "not-tested": "Reactivity was not tested",
};
const stateChangeWords: Record<string, string> = {
  "present-normal": "Sleep-wake state changes are present and normal",
  "present-abnormal": "State changes are present but abnormal",
  absent: "No state changes are seen",
};

/** The background paragraph; empty when nothing about the background was recorded. */
export function describeBackground(background: InterpretationData["background"]): string {
  const sentences: string[] = [];
  const qualities = [
    background.continuity ? continuityWords[background.continuity] : undefined,
    background.symmetry ? symmetryWords[background.symmetry] : undefined,
  ].filter((word): word is string => Boolean(word));
  const frequency = background.predominantFrequency
    ? `with predominantly ${background.predominantFrequency} frequencies`
    : undefined;
  if (qualities.length > 0) {
    sentences.push(sentence(`The background is ${qualities.join(" and ")}${frequency ? `, ${frequency}` : ""}`));
  } else if (frequency) {
    sentences.push(sentence(`The background shows predominantly ${background.predominantFrequency} frequencies`));
  }
  if (background.pdrHz !== null) {
    sentences.push(sentence(`A posterior dominant rhythm of ${formatHz(background.pdrHz)} is present`));
  }
  if (background.voltage) sentences.push(sentence(voltageWords[background.voltage] ?? ""));
  if (background.reactivity) sentences.push(sentence(reactivityWords[background.reactivity] ?? ""));
  if (background.stateChanges) sentences.push(sentence(stateChangeWords[background.stateChanges] ?? ""));
  sentences.push(sentence(background.notes));
  return sentences.filter(Boolean).join(" ");
}

const seizureWords: Record<string, [string, string]> = {
  ESz: ["electrographic seizure (ESz)", "electrographic seizures (ESz)"],
  ECSz: ["electroclinical seizure (ECSz)", "electroclinical seizures (ECSz)"],
  ESE: ["episode of electrographic status epilepticus (ESE)", "episodes of electrographic status epilepticus (ESE)"],
  ECSE: [
    "episode of electroclinical status epilepticus (ECSE)",
    "episodes of electroclinical status epilepticus (ECSE)",
  ],
  IIC: ["pattern on the ictal-interictal continuum (IIC)", "patterns on the ictal-interictal continuum (IIC)"],
};

/** The seizures paragraph: "No seizures were recorded." or "3 electrographic seizures (ESz) were recorded. …" */
export function describeSeizures(seizures: InterpretationData["seizures"]): string {
  if (seizures.classification === "none") {
    return [sentence("No seizures were recorded"), sentence(seizures.description)].filter(Boolean).join(" ");
  }
  const [one, many] = seizureWords[seizures.classification] ?? [seizures.classification, seizures.classification];
  const counted =
    seizures.count === null
      ? `${many[0]?.toUpperCase()}${many.slice(1)} ${seizures.classification === "IIC" ? "were seen" : "were recorded"}`
      : `${seizures.count} ${seizures.count === 1 ? one : many} ${seizures.count === 1 ? "was" : "were"} ${seizures.classification === "IIC" ? "seen" : "recorded"}`;
  return [sentence(counted), sentence(seizures.description)].filter(Boolean).join(" ");
}

/** Every finding's sentence, in the order written; an empty list says so. */
export function describeFindings(findings: readonly AcnsFinding[]): string[] {
  if (findings.length === 0) return ["No periodic or rhythmic patterns or epileptiform discharges were recorded."];
  return findings.map(describeFinding);
}
