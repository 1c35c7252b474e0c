import { z } from "zod";
import { pageOf, pageQuerySchema } from "../envelope.js";
import { casePrioritySchema, caseStageSchema } from "./case-workflow.js";
import { authorSchema, idSchema, isoDateTimeSchema } from "./common.js";

/**
 * The promises a client's protocol makes, each on a clock (PRODUCT.md §10):
 * - `stat-acknowledgement`: a reviewer takes a STAT case within the protocol's `statAcknowledgeMinutes`;
 * - `impedance-check`: while monitoring, an impedance check at least every `impedanceCheckIntervalHours`;
 * - `intermittent-review`: while an intermittent time log runs, a documented review at least every 2 h (DOMAIN.md §2.3);
 * - `review-turnaround`: from the case's latest entry into preview to reviewed within `reviewTurnaroundHours`;
 * - `critical-notification`: a critical finding raised on the case is acknowledged by the hospital within the
 *   protocol's `criticalNotification.withinMinutes` (PRODUCT.md §11); one clock per finding, cancelled ones owe nothing.
 */
export const clockKinds = [
  "stat-acknowledgement",
  "impedance-check",
  "intermittent-review",
  "review-turnaround",
  "critical-notification",
] as const;
export const clockKindSchema = z.enum(clockKinds);
export type ClockKind = z.infer<typeof clockKindSchema>;

/** Running clocks are `ok`, `due-soon` or `overdue`; stopped ones `met` (in time) or `missed` (late). */
export const clockStates = ["ok", "due-soon", "overdue", "met", "missed"] as const;
export const clockStateSchema = z.enum(clockStates);
export type ClockState = z.infer<typeof clockStateSchema>;

/** Who must act next: the assigned technologist or reviewer, else the coordinators. */
export const clockOwnerSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("user"), user: authorSchema }),
  z.object({ kind: z.literal("coordinators") }),
]);
export type ClockOwner = z.infer<typeof clockOwnerSchema>;

export const serviceClockSchema = z.object({
  kind: clockKindSchema,
  caseId: idSchema,
  startedAt: isoDateTimeSchema,
  /** From here a running clock is `due-soon` (WATCH_DUE_SOON_SHARE of its window left): screens count down to it. */
  dueSoonAt: isoDateTimeSchema,
  dueAt: isoDateTimeSchema,
  /** When the step that stops the clock was taken; null while it runs. */
  stoppedAt: isoDateTimeSchema.nullable(),
  windowMinutes: z.number().int().positive(),
  state: clockStateSchema,
  owner: clockOwnerSchema,
});
export type ServiceClock = z.infer<typeof serviceClockSchema>;

/** `GET cases/{id}/clocks`: the case's clocks at `asOf` (the server's clock), so a screen can count down from it. */
export const caseClocksSchema = z.object({
  caseId: idSchema,
  asOf: isoDateTimeSchema,
  clocks: z.array(serviceClockSchema),
});
export type CaseClocks = z.infer<typeof caseClocksSchema>;

/**
 * A clock's state at `now` (milliseconds), the one rule the server answers with and a screen ages a clock by. The
 * window is closed at both ends: a step taken exactly at the due time is in time, and a running clock turns
 * `overdue` only after it.
 */
export function clockStateAt(
  clock: { dueSoonAt: number; dueAt: number; stoppedAt: number | null },
  now: number,
): ClockState {
  if (clock.stoppedAt !== null) return clock.stoppedAt <= clock.dueAt ? "met" : "missed";
  if (now > clock.dueAt) return "overdue";
  return now >= clock.dueSoonAt ? "due-soon" : "ok";
}

// ---------------------------------------------------------------------------------------------------------------
// The board: every open case's next-due clock, sorted by time to breach
// ---------------------------------------------------------------------------------------------------------------

/** The owner filter's value for clocks nobody is assigned to (the coordinators own them). */
export const coordinatorsOwner = "coordinators";

/**
 * `GET /board`: server-paged like the case queues. One row per case (its next-due clock) unless `kind` is given,
 * then that kind's clock of every case that runs one. `owner`: a username, or `coordinators` (no one assigned);
 * `mine`: the caller's own clocks. `alsoDueSoon` (with `owner` or `mine`): also every other clock due soon or
 * overdue and every open critical finding's, whoever owns it — a coordinator's desk watches their own and every
 * promise about to break. Open critical findings' rows come first, then the rest by due time.
 */
export const watchBoardQuerySchema = pageQuerySchema.extend({
  clientId: idSchema.optional(),
  stage: caseStageSchema.optional(),
  kind: clockKindSchema.optional(),
  owner: z
    .string()
    .trim()
    .min(1, { message: "is required", abort: true })
    .max(128)
    .regex(/^[\p{L}\p{M}\p{S}\p{N}\p{P}]+$/u, "may not contain spaces")
    .optional(),
  mine: z.stringbool().optional(),
  alsoDueSoon: z.stringbool().optional(),
});
export type WatchBoardQuery = z.input<typeof watchBoardQuerySchema>;

/** A running clock as the board shows it: its state at the answer's `asOf`, aged on screen by `clockStateAt`. */
export const boardClockSchema = z.object({
  kind: clockKindSchema,
  startedAt: isoDateTimeSchema,
  dueSoonAt: isoDateTimeSchema,
  dueAt: isoDateTimeSchema,
  windowMinutes: z.number().int().positive(),
  state: z.enum(["ok", "due-soon", "overdue"]),
  owner: clockOwnerSchema,
});
export type BoardClock = z.infer<typeof boardClockSchema>;

export const watchBoardRowSchema = z.object({
  caseId: idSchema,
  caseNumber: z.string(),
  stage: caseStageSchema,
  priority: casePrioritySchema,
  patientName: z.string().nullable(),
  mrn: z.string().nullable(),
  client: z.object({ id: idSchema, name: z.string(), code: z.string(), timezone: z.string() }),
  clock: boardClockSchema,
  /** How many other clocks of the case run besides this one. */
  otherClocks: z.number().int().min(0),
  /** When the hospital's ADT^A03 said the patient was discharged (docs/design/HL7.md): "end monitoring?". */
  dischargedAt: isoDateTimeSchema.nullable(),
});
export type WatchBoardRow = z.infer<typeof watchBoardRowSchema>;

export const watchBoardSchema = pageOf(watchBoardRowSchema).extend({ asOf: isoDateTimeSchema });
export type WatchBoard = z.infer<typeof watchBoardSchema>;
