import { z } from "zod";
import { authorSchema, idSchema, isoDateTimeSchema } from "./common.js";

/**
 * The promises a client's protocol makes, each on a clock (PRODUCT.md §10):
 * - `stat-acknowledgement`: a reviewer takes a STAT case within the protocol's `statAcknowledgeMinutes`;
 * - `impedance-check`: while monitoring, an impedance check at least every `impedanceCheckIntervalHours`;
 * - `intermittent-review`: while an intermittent time log runs, a documented review at least every 2 h (DOMAIN.md §2.3);
 * - `review-turnaround`: from the case's latest entry into preview to reviewed within `reviewTurnaroundHours`.
 */
export const clockKinds = [
  "stat-acknowledgement",
  "impedance-check",
  "intermittent-review",
  "review-turnaround",
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
