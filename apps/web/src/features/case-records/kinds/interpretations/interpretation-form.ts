import type {
  AcnsFinding,
  acnsDurations,
  acnsLocations,
  acnsPatterns,
  acnsPrevalences,
  Case,
  InterpretationData,
} from "@vigil/contract";
import { isoToZonedInput } from "../../../../components/dates/zoned-input";
import { choiceOrNull, numberOrNull, numberText, zonedInstant } from "../form-values";

type Background = InterpretationData["background"];
type NullableChoices<T> = { [K in keyof T]: Exclude<T[K], null> | "" };

export type FindingFormValues = {
  location: (typeof acnsLocations)[number] | "";
  pattern: (typeof acnsPatterns)[number] | "";
  plusModifier: AcnsFinding["plusModifier"];
  prevalence: (typeof acnsPrevalences)[number] | "";
  duration: (typeof acnsDurations)[number] | "";
  frequencyHz: string;
  evolution: AcnsFinding["evolution"];
  stimulusInduced: boolean;
  notes: string;
};

export type InterpretationFormValues = {
  reportType: InterpretationData["reportType"];
  periodFrom: string;
  periodTo: string;
  history: string;
  technicalDescription: string;
  background: NullableChoices<Omit<Background, "pdrHz" | "notes">> & { pdrHz: string; notes: string };
  findings: FindingFormValues[];
  seizures: { classification: InterpretationData["seizures"]["classification"]; count: string; description: string };
  impression: string;
  clinicalCorrelation: string;
};

export const emptyFinding: FindingFormValues = {
  location: "",
  pattern: "",
  plusModifier: "none",
  prevalence: "",
  duration: "",
  frequencyHz: "",
  evolution: "static",
  stimulusInduced: false,
  notes: "",
};

const dayMs = 24 * 60 * 60 * 1000;

/** A new report covers the recording (or the last 24 h of it while it runs); an edit starts from the saved one. */
export function interpretationFormValues(
  initial: InterpretationData | undefined,
  caseItem: Pick<Case, "recordingStartedAt" | "recordingEndedAt" | "client">,
  now = new Date(),
): InterpretationFormValues {
  const zone = caseItem.client.timezone;
  const periodTo = initial?.periodTo ?? caseItem.recordingEndedAt ?? now.toISOString();
  const periodFrom =
    initial?.periodFrom ?? caseItem.recordingStartedAt ?? new Date(Date.parse(periodTo) - dayMs).toISOString();
  const background = initial?.background;
  return {
    reportType: initial?.reportType ?? "daily",
    periodFrom: isoToZonedInput(periodFrom, zone),
    periodTo: isoToZonedInput(periodTo, zone),
    history: initial?.history ?? "",
    technicalDescription: initial?.technicalDescription ?? "",
    background: {
      continuity: background?.continuity ?? "",
      symmetry: background?.symmetry ?? "",
      predominantFrequency: background?.predominantFrequency ?? "",
      pdrHz: numberText(background?.pdrHz),
      voltage: background?.voltage ?? "",
      reactivity: background?.reactivity ?? "",
      stateChanges: background?.stateChanges ?? "",
      notes: background?.notes ?? "",
    },
    findings: (initial?.findings ?? []).map((finding) => ({
      ...finding,
      duration: finding.duration ?? "",
      frequencyHz: numberText(finding.frequencyHz),
    })),
    seizures: {
      classification: initial?.seizures.classification ?? "none",
      count: numberText(initial?.seizures.count),
      description: initial?.seizures.description ?? "",
    },
    impression: initial?.impression ?? "",
    clinicalCorrelation: initial?.clinicalCorrelation ?? "",
  };
}

/** Form → the contract's body: wall times in the client's zone, empty choices null (or missing when required). */
export function interpretationInput(timeZone: string) {
  const required = <T extends string>(value: T | "") => (value === "" ? undefined : value);
  return (values: InterpretationFormValues) => ({
    ...values,
    periodFrom: zonedInstant(values.periodFrom, timeZone, undefined),
    periodTo: zonedInstant(values.periodTo, timeZone, undefined),
    background: {
      continuity: choiceOrNull(values.background.continuity),
      symmetry: choiceOrNull(values.background.symmetry),
      predominantFrequency: choiceOrNull(values.background.predominantFrequency),
      pdrHz: numberOrNull(values.background.pdrHz),
      voltage: choiceOrNull(values.background.voltage),
      reactivity: choiceOrNull(values.background.reactivity),
      stateChanges: choiceOrNull(values.background.stateChanges),
      notes: values.background.notes,
    },
    findings: values.findings.map((finding) => ({
      ...finding,
      location: required(finding.location),
      pattern: required(finding.pattern),
      prevalence: required(finding.prevalence),
      duration: choiceOrNull(finding.duration),
      frequencyHz: numberOrNull(finding.frequencyHz),
    })),
    seizures: {
      classification: values.seizures.classification,
      count: numberOrNull(values.seizures.count),
      description: values.seizures.description,
    },
  });
}
