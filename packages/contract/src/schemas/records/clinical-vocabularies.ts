import { z } from "zod";

/** Clinical vocabularies of the records (DOMAIN.md §1.2, §1.3): electrodes and the ACNS 2021 terms. */

/** The 10–20 system's electrodes (modern names: T7/T8/P7/P8 for the old T3/T4/T5/T6), ears for reference. */
export const electrodes = [
  "Fp1",
  "Fp2",
  "F7",
  "F3",
  "Fz",
  "F4",
  "F8",
  "T7",
  "C3",
  "Cz",
  "C4",
  "T8",
  "P7",
  "P3",
  "Pz",
  "P4",
  "P8",
  "O1",
  "O2",
  "A1",
  "A2",
] as const;
export const electrodeSchema = z.enum(electrodes);
export type Electrode = z.infer<typeof electrodeSchema>;

/** Below this an electrode is good (ACNS: keep impedances below 5 kΩ); from here to the threshold: caution. */
export const recommendedImpedanceKohm = 5;

/** ACNS 2021 main term 1: localisation. */
export const acnsLocations = ["G", "L", "BI", "UI", "Mf"] as const;
/** ACNS 2021 main term 2: pattern. */
export const acnsPatterns = ["PD", "RDA", "SW"] as const;
/** Plus modifiers (+F, +R, +S and combinations); EDB is extreme delta brush. */
export const acnsPlusModifiers = ["none", "+F", "+R", "+S", "+FR", "+FS", "EDB"] as const;
export const acnsPrevalences = ["continuous", "abundant", "frequent", "occasional", "rare"] as const;
export const acnsDurations = ["very-long", "long", "intermediate", "brief", "very-brief"] as const;
export const acnsEvolutions = ["evolving", "fluctuating", "static"] as const;
export const acnsContinuities = [
  "continuous",
  "nearly-continuous",
  "discontinuous",
  "burst-suppression",
  "suppression",
] as const;
export const acnsVoltages = ["normal", "low", "suppressed"] as const;
export const acnsSymmetries = ["symmetric", "mild-asymmetry", "marked-asymmetry"] as const;
export const acnsReactivities = ["present", "absent", "unclear", "not-tested"] as const;
export const acnsPredominantFrequencies = ["delta", "theta", "alpha", "beta"] as const;
export const acnsStateChanges = ["present-normal", "present-abnormal", "absent"] as const;
/** No seizures; electrographic / electroclinical seizure; electrographic / electroclinical status; IIC. */
export const seizureClassifications = ["none", "ESz", "ECSz", "ESE", "ECSE", "IIC"] as const;

/**
 * The impression as a code, chosen when signing (optional: "not coded" leaves it to the text): the label screens and
 * the PDF print, and the SNOMED CT concept the FHIR DiagnosticReport's `conclusionCode` carries (which sources
 * corroborate each: docs/design/FHIR.md, "Codes, and why"). Electrographic seizure and status epilepticus share
 * their concept with the electroclinical ones (no pre-coordinated "electrographic" concept could be verified), and
 * the label says which.
 */
export const impressionCodes = {
  normal: { label: "Normal EEG", snomed: "17621005", display: "Normal (qualifier value)" },
  abnormal: { label: "Abnormal EEG", snomed: "263654008", display: "Abnormal (qualifier value)" },
  "electrographic-seizure": { label: "Electrographic seizures", snomed: "91175000", display: "Seizure (finding)" },
  "electrographic-status-epilepticus": {
    label: "Electrographic status epilepticus",
    snomed: "230456007",
    display: "Status epilepticus (disorder)",
  },
} as const;
export const impressionCodeIds = Object.keys(impressionCodes) as (keyof typeof impressionCodes)[];
export type ImpressionCode = keyof typeof impressionCodes;

/** Labels in words, so screens and printouts say the same thing. */
export const acnsLabels: Record<string, string> = {
  G: "Generalized (G)",
  L: "Lateralized (L)",
  BI: "Bilateral independent (BI)",
  UI: "Unilateral independent (UI)",
  Mf: "Multifocal (Mf)",
  PD: "Periodic discharges (PD)",
  RDA: "Rhythmic delta activity (RDA)",
  SW: "Spike-and-wave / sharp-and-wave (SW)",
  none: "None",
  "+F": "+F superimposed fast",
  "+R": "+R superimposed rhythmic",
  "+S": "+S superimposed sharp",
  "+FR": "+FR",
  "+FS": "+FS",
  EDB: "Extreme delta brush (EDB)",
  continuous: "Continuous (≥90%)",
  abundant: "Abundant (50–89%)",
  frequent: "Frequent (10–49%)",
  occasional: "Occasional (1–9%)",
  rare: "Rare (<1%)",
  "very-long": "Very long (≥1 h)",
  long: "Long (5–59 min)",
  intermediate: "Intermediate (1–4.9 min)",
  brief: "Brief (10–59 s)",
  "very-brief": "Very brief (<10 s)",
  evolving: "Evolving",
  fluctuating: "Fluctuating",
  static: "Static",
  ESz: "Electrographic seizure(s) (ESz: >2.5 Hz for ≥10 s, or definite evolution ≥10 s)",
  ECSz: "Electroclinical seizure(s) (ECSz)",
  ESE: "Electrographic status epilepticus (ESE: ESz ≥10 min continuous or ≥20% of any hour)",
  ECSE: "Electroclinical status epilepticus (ECSE)",
  IIC: "Ictal-interictal continuum (IIC)",
};
