import { z } from "zod";

/**
 * Per-case records (PRODUCT.md §4). Every record is an item with an append-only list of revisions; its
 * current state is the latest revision. A new revision names the revision it was based on: a stale base is a 409
 * carrying the current item in `error.details.current`, and nothing is overwritten. Removing is a revision
 * marked deleted (restorable). Patient details are one per case and use `PUT` with `If-Match` instead.
 */

export const recordKinds = ["interpretation", "impedance", "event", "time-log", "case-note", "billing-note"] as const;
export const recordKindSchema = z.enum(recordKinds);
export type RecordKind = z.infer<typeof recordKindSchema>;

/** What the stage-and-group table governs: the six record kinds and the patient details. */
export type RecordArea = RecordKind | "patient-details";

/** The URL segment of each kind under `cases/{stage}/{id}/` (and the case tab that shows it). */
export const recordSegments = {
  interpretation: "interpretations",
  impedance: "impedances",
  event: "events",
  "time-log": "time-logs",
  "case-note": "case-notes",
  "billing-note": "billing-notes",
} as const satisfies Record<RecordKind, string>;
