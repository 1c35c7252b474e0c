import type { BillingNoteData, InterpretationInput } from "@vigil/contract";

/**
 * The texts of the demo cases' records as literals: the interpretation a reviewer wrote for the case in preview
 * (a draft), in reviewed and in closed (signed), and the billing notes of the last two. `seed-records.ts` adds the
 * period each covers and writes them through the records service.
 */

export type DemoInterpretation = Omit<InterpretationInput, "periodFrom" | "periodTo">;

export const normalBackground: InterpretationInput["background"] = {
  continuity: "continuous",
  symmetry: "symmetric",
  predominantFrequency: "alpha",
  pdrHz: 9.5,
  voltage: "normal",
  reactivity: "present",
  stateChanges: "present-normal",
  notes: "Normal sleep architecture with spindles and K-complexes.",
};

export const demoInterpretations: Record<"preview" | "reviewed" | "closed", DemoInterpretation> = {
  preview: {
    reportType: "daily",
    history: "5-year-old with febrile status epilepticus, loaded with fosphenytoin; midazolam infusion weaned.",
    technicalDescription:
      "21 electrodes (10–20 system), paste; video recorded throughout. Intermittent sweat artifact.",
    // biome-ignore lint/plugin/leading-spread-then-keys: the normal background's own fields, changed
    background: {
      ...normalBackground,
      continuity: "discontinuous",
      predominantFrequency: "delta",
      pdrHz: null,
      reactivity: "unclear",
      stateChanges: "absent",
      notes: "",
    },
    findings: [
      {
        location: "G",
        pattern: "PD",
        plusModifier: "none",
        prevalence: "abundant",
        duration: "long",
        frequencyHz: 1,
        evolution: "fluctuating",
        stimulusInduced: false,
        notes: "Frontally predominant GPDs during the first 6 hours.",
      },
    ],
    seizures: {
      classification: "ESz",
      count: 4,
      description: "Four electrographic seizures in the first 6 h; none after midazolam titration.",
    },
    impression: "",
    clinicalCorrelation: "",
  },
  reviewed: {
    reportType: "summary",
    history: "47-year-old with drug-resistant focal seizures; carbamazepine tapered to capture typical events.",
    technicalDescription:
      "21 electrodes (10–20 system) with T1/T2; continuous video. Data reviewed with spike and seizure detection.",
    background: normalBackground,
    findings: [
      {
        location: "L",
        pattern: "RDA",
        plusModifier: "none",
        prevalence: "occasional",
        duration: "brief",
        frequencyHz: 1.5,
        evolution: "static",
        stimulusInduced: false,
        notes: "Left temporal (LRDA), maximal F7/T7.",
      },
    ],
    seizures: {
      classification: "ECSz",
      count: 2,
      description:
        "Two typical events: behavioural arrest and oral automatisms with left temporal rhythmic theta evolving over 40 s.",
    },
    impression:
      "Abnormal video-EEG: (1) occasional left temporal rhythmic delta activity (LRDA); (2) two electroclinical seizures of left temporal onset during the medication taper.",
    clinicalCorrelation:
      "The typical events are epileptic seizures of left temporal origin. Consider pre-surgical evaluation.",
  },
  closed: {
    reportType: "summary",
    history: "59-year-old on valproate; seizure frequency to be quantified before a medication change.",
    technicalDescription: "Ambulatory EEG, 21 electrodes, no video; patient diary scanned at takedown.",
    background: normalBackground,
    findings: [],
    seizures: { classification: "none", count: null, description: "" },
    impression:
      "Normal ambulatory EEG awake and asleep. No epileptiform discharges; no electrographic seizures. Three push-button events without an EEG correlate.",
    clinicalCorrelation: "A normal study does not exclude epilepsy; the pushed events were not epileptic.",
  },
};

export const demoBillingNotes: Record<"reviewed" | "closed", BillingNoteData> = {
  reviewed: {
    body: "24 h EMU video-EEG with continuous real-time monitoring; summary report signed.",
    cptCodes: [
      { code: "95700", units: 1, modifiers: [] },
      { code: "95716", units: 1, modifiers: [] },
      { code: "95720", units: 1, modifiers: [] },
    ],
    adjustments: "",
    acknowledgedWarnings: [],
  },
  closed: {
    body: "Ambulatory EEG 24 h, unmonitored; billed with the summary report.",
    cptCodes: [
      { code: "95700", units: 1, modifiers: [] },
      { code: "95708", units: 1, modifiers: [] },
      { code: "95719", units: 1, modifiers: [] },
    ],
    adjustments: "",
    acknowledgedWarnings: [],
  },
};
