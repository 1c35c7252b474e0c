import { z } from "zod";
import {
  authorSchema,
  derivedDateTimeSchema,
  derivedMonthSchema,
  idSchema,
  isoDateTimeSchema,
  monthSchema,
} from "./common.js";
import { criticalFindingKindSchema } from "./critical-findings.js";
import { clockKindSchema } from "./watch.js";

/**
 * The monthly service-level report (PRODUCT.md §10): every clock instance a client's cases ran, counted in the month
 * its due time falls in (the client's time zone). Durations are whole seconds, every one rounded up: a promise missed
 * by a moment is late by 1 s, never by 0, and a clock that took longer than its window never reads as taking it
 * exactly. Screens show seconds under an hour, so a late step never reads as in time.
 */
export const serviceLevelParamsSchema = z.object({ clientId: idSchema, month: monthSchema });
export type ServiceLevelParams = z.infer<typeof serviceLevelParamsSchema>;

/**
 * Nearest-rank percentiles of a set of durations (seconds): p is the smallest value with at least p% of the values at
 * or below it, always a value measured (for [0, 1] the p50 is 0; a spreadsheet's PERCENTILE.INC interpolates 0.5).
 * null when the set is empty.
 */
export const durationPercentilesSchema = z.object({
  p50: z.number().int().min(0),
  p90: z.number().int().min(0),
  max: z.number().int().min(0),
});
export type DurationPercentiles = z.infer<typeof durationPercentilesSchema>;

export const serviceLevelKindFiguresSchema = z.object({
  kind: clockKindSchema,
  kept: z.number().int().min(0),
  missed: z.number().int().min(0),
  /** Due later in the month than the time of reading and still running: neither kept nor missed yet. */
  pending: z.number().int().min(0),
  /** Start → stop of the clocks that were stopped (kept, or stopped late). */
  takenSeconds: durationPercentilesSchema.nullable(),
  /** Due → stop (or → the time of reading, while still running) of the missed clocks. */
  lateSeconds: durationPercentilesSchema.nullable(),
});
export type ServiceLevelKindFigures = z.infer<typeof serviceLevelKindFiguresSchema>;

/** One broken promise: which case, which clock, when it was due and how late. No patient is named. */
export const serviceLevelBreachSchema = z.object({
  caseId: idSchema,
  caseNumber: z.string(),
  kind: clockKindSchema,
  startedAt: derivedDateTimeSchema,
  dueAt: derivedDateTimeSchema,
  /** When the step that stops the clock was taken; null when it never was. */
  stoppedAt: derivedDateTimeSchema.nullable(),
  /**
   * `stopped` late; `ended` without the step (the recording, the log or the hand-over ended after the due time, or a
   * STAT case was reviewed without being taken); `running` still at the time of reading, late so far (a critical
   * finding not acknowledged yet).
   */
  end: z.enum(["stopped", "ended", "running"]),
  lateSeconds: z.number().int().min(0),
});
export type ServiceLevelBreach = z.infer<typeof serviceLevelBreachSchema>;

export const serviceLevelSeriesMonthSchema = z.object({
  month: derivedMonthSchema,
  kinds: z.array(z.object({ kind: clockKindSchema, kept: z.number().int().min(0), missed: z.number().int().min(0) })),
});
export type ServiceLevelSeriesMonth = z.infer<typeof serviceLevelSeriesMonthSchema>;

/** A critical finding whose acknowledgement window was missed: acknowledged late, or not at all. No patient is named. */
export const serviceLevelMissedFindingSchema = z.object({
  findingId: idSchema,
  caseId: idSchema,
  caseNumber: z.string(),
  kind: criticalFindingKindSchema,
  raisedAt: derivedDateTimeSchema,
  dueAt: derivedDateTimeSchema,
  /** null: not acknowledged by the time of reading. */
  acknowledgedAt: derivedDateTimeSchema.nullable(),
  /** Due → acknowledged, or → the time of reading while not acknowledged. */
  lateSeconds: z.number().int().min(0),
});
export type ServiceLevelMissedFinding = z.infer<typeof serviceLevelMissedFindingSchema>;

/**
 * The month's critical findings (PRODUCT.md §11), counted like their clocks in the month their acknowledgement fell
 * due: `count` is every one of them, split into acknowledged in time, late, not acknowledged (still open past due: a
 * missed window), not due yet, and cancelled (owed nothing). The durations are of the findings not cancelled.
 */
export const serviceLevelCriticalFindingsSchema = z.object({
  count: z.number().int().min(0),
  acknowledgedInTime: z.number().int().min(0),
  acknowledgedLate: z.number().int().min(0),
  notAcknowledged: z.number().int().min(0),
  pending: z.number().int().min(0),
  cancelled: z.number().int().min(0),
  /** Raised → acknowledged, of the acknowledged ones. */
  acknowledgementSeconds: durationPercentilesSchema.nullable(),
  /** EEG onset → raised, the median; null when there is none. */
  onsetToRaisedSecondsP50: z.number().int().min(0).nullable(),
  /** Raised → the first message sent, the median of those where one was sent; null when none was. */
  raisedToNotifiedSecondsP50: z.number().int().min(0).nullable(),
  /** The missed windows, by due time. */
  missed: z.array(serviceLevelMissedFindingSchema),
});
export type ServiceLevelCriticalFindings = z.infer<typeof serviceLevelCriticalFindingsSchema>;

/** `GET reporting/service-levels/{clientId}/{month}`. */
export const serviceLevelReportSchema = z.object({
  clientId: idSchema,
  clientName: z.string(),
  clientCode: z.string(),
  timeZone: z.string(),
  month: monthSchema,
  /** The month in the client's zone, [periodStart, periodEnd). */
  periodStart: derivedDateTimeSchema,
  periodEnd: derivedDateTimeSchema,
  /** The time of reading: clocks still running are judged at it. */
  asOf: isoDateTimeSchema,
  /** Every clock kind, in the contract's order, with zeros where none fell due. */
  kinds: z.array(serviceLevelKindFiguresSchema),
  /** The missed clocks of the month, by due time. */
  breaches: z.array(serviceLevelBreachSchema),
  criticalFindings: serviceLevelCriticalFindingsSchema,
  /** The 12 months ending with this one, oldest first. */
  series: z.array(serviceLevelSeriesMonthSchema),
});
export type ServiceLevelReport = z.infer<typeof serviceLevelReportSchema>;

/** Whose step a clock waited for: technologists own the recording's clocks, reviewers the STAT and review ones. */
export const serviceLevelRoles = ["technologist", "reviewer"] as const;
export const serviceLevelRoleSchema = z.enum(serviceLevelRoles);

export const serviceLevelPersonSchema = z.object({
  role: serviceLevelRoleSchema,
  /** null: nobody was assigned at the time, the coordinators owned the clock. */
  person: authorSchema.nullable(),
  kinds: z.array(z.object({ kind: clockKindSchema, kept: z.number().int().min(0), missed: z.number().int().min(0) })),
  kept: z.number().int().min(0),
  missed: z.number().int().min(0),
});
export type ServiceLevelPerson = z.infer<typeof serviceLevelPersonSchema>;

/** `GET reporting/service-levels/{clientId}/{month}/people` (administrators): each owner's kept and missed clocks. */
export const serviceLevelPeopleSchema = z.object({
  clientId: idSchema,
  month: monthSchema,
  asOf: isoDateTimeSchema,
  people: z.array(serviceLevelPersonSchema),
});
export type ServiceLevelPeople = z.infer<typeof serviceLevelPeopleSchema>;
