import {
  type AccessGroup,
  type BillingNoteData,
  type CaseNoteData,
  type CaseStage,
  type EventInput,
  type ImpedanceInput,
  type InterpretationInput,
  type RecordKind,
  recordSegments,
  type TimeLogInput,
} from "@vigil/contract";
import { expect } from "vitest";
import type { Caller } from "./cases-kit.js";

/** Shared by the records module's API tests: where each kind lives, sample data, and one call to create it. */

export function collectionOf(kind: RecordKind, caseId: string): string {
  const stage = kind === "billing-note" ? "reviewed" : "monitoring";
  return `/cases/${stage}/${caseId}/${recordSegments[kind]}`;
}

export function itemPath(kind: RecordKind, caseId: string, itemId: string): string {
  return `${collectionOf(kind, caseId)}/${itemId}/revisions`;
}

/** A stage in which the kind may be written, and a group that may write it there. */
export const writableStage: Record<RecordKind, CaseStage> = {
  interpretation: "preview",
  impedance: "monitoring",
  event: "monitoring",
  "time-log": "monitoring",
  "case-note": "monitoring",
  "billing-note": "reviewed",
};
export const writerGroup: Record<RecordKind, AccessGroup> = {
  interpretation: "reviewer",
  impedance: "technologist",
  event: "technologist",
  "time-log": "technologist",
  "case-note": "technologist",
  "billing-note": "billing",
};

export const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

// Each sample time log gets its own hour in the past, so one technologist's samples never overlap.
let timeLogSlot = 0;

/**
 * Back to the most recent hour. Test files share a worker's modules (vitest.config.ts, `isolate: false`), and a
 * file's samples must not start where the last file's reached: a month back is outside a fresh case's recording.
 */
export function resetSampleTimeLogs(): void {
  timeLogSlot = 0;
}

export function sampleInterpretation(overrides: Partial<InterpretationInput> = {}): InterpretationInput {
  return {
    reportType: "daily",
    periodFrom: minutesAgo(24 * 60),
    periodTo: minutesAgo(30),
    history: "67-year-old after cardiac arrest, on propofol.",
    technicalDescription: "21 electrodes, 10–20 system; intermittent muscle artifact.",
    background: {
      continuity: "nearly-continuous",
      symmetry: "symmetric",
      predominantFrequency: "theta",
      pdrHz: null,
      voltage: "normal",
      reactivity: "present",
      stateChanges: "absent",
      notes: "",
    },
    findings: [
      {
        location: "L",
        pattern: "PD",
        plusModifier: "none",
        prevalence: "frequent",
        duration: "long",
        frequencyHz: 1,
        evolution: "static",
        stimulusInduced: false,
        notes: "Left temporal maximum.",
      },
    ],
    seizures: { classification: "none", count: null, description: "" },
    impression: "Abnormal: lateralized periodic discharges, left hemisphere; no electrographic seizures.",
    clinicalCorrelation: "Increased risk of seizures; continue monitoring.",
    ...overrides,
  };
}

export function sampleImpedance(overrides: Partial<ImpedanceInput> = {}): ImpedanceInput {
  return {
    checkedAt: minutesAgo(10),
    values: [
      { electrode: "Fp1", kohm: 3 },
      { electrode: "Fp2", kohm: 7 },
      { electrode: "O1", kohm: 12 },
    ],
    notes: "",
    ...overrides,
  };
}

export function sampleEvent(overrides: Partial<EventInput> = {}): EventInput {
  return { occurredAt: minutesAgo(20), type: "clinical", description: "Right arm twitching for 20 s.", ...overrides };
}

export function sampleTimeLog(overrides: Partial<TimeLogInput> = {}): TimeLogInput {
  timeLogSlot += 1;
  return {
    activity: "monitoring",
    mode: "continuous",
    video: true,
    startedAt: minutesAgo(60 * (2 * timeLogSlot + 1)),
    endedAt: minutesAgo(60 * (2 * timeLogSlot)),
    billable: true,
    channels: 21,
    notes: "",
    ...overrides,
  };
}

export function sampleCaseNote(overrides: Partial<CaseNoteData> = {}): CaseNoteData {
  return { category: "handoff", body: "Electrodes re-gelled at 02:00; family at bedside.", ...overrides };
}

export function sampleBillingNote(overrides: Partial<BillingNoteData> = {}): BillingNoteData {
  return {
    body: "Billed as 24 h continuous video EEG.",
    cptCodes: [{ code: "95720", units: 1, modifiers: [] }],
    adjustments: "",
    acknowledgedWarnings: [],
    ...overrides,
  };
}

export function sampleDataOf(kind: RecordKind): unknown {
  switch (kind) {
    case "interpretation":
      return sampleInterpretation();
    case "impedance":
      return sampleImpedance();
    case "event":
      return sampleEvent();
    case "time-log":
      return sampleTimeLog();
    case "case-note":
      return sampleCaseNote();
    case "billing-note":
      return sampleBillingNote();
  }
}

/** The same item with one visible change (what an edit sends). */
export function editedDataOf(kind: RecordKind, data: unknown): Record<string, unknown> {
  const value = data as Record<string, unknown>;
  switch (kind) {
    case "interpretation":
      return { ...value, impression: "Abnormal: LPDs, left; revised wording." };
    case "impedance":
      return { ...value, notes: "Re-gelled O1." };
    case "event":
      return { ...value, description: "Right arm twitching for 30 s." };
    case "time-log":
      return { ...value, notes: "Covered a colleague's break." };
    case "case-note":
    case "billing-note":
      return { ...value, body: `${String(value.body)} (corrected)` };
  }
}

/** Creates one item as `caller` and returns it (the call must succeed). */
export async function createItem<T = Record<string, unknown>>(
  caller: Caller,
  kind: RecordKind,
  caseId: string,
  data: unknown = sampleDataOf(kind),
): Promise<T & { id: string; revision: number; data: Record<string, unknown> }> {
  const response = await caller("POST", collectionOf(kind, caseId), { body: data });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
}
