import { z } from "zod";
import { idSchema, isoDateTimeSchema } from "./common.js";

/** What changed about a case: a hint for screens, which re-read what they show of it (never the data itself). */
export const caseChanges = ["case", "stage", "record", "patient", "clocks"] as const;
export const caseChangeSchema = z.enum(caseChanges);
export type CaseChange = z.infer<typeof caseChangeSchema>;

/**
 * One committed write to a case (`event: case`). `id` increases with every event and is also the frame's SSE `id`,
 * so a reconnecting client sends it back as `Last-Event-ID` and gets what it missed. It names the case, never the
 * patient: a subscriber who may read cases re-reads what it shows.
 */
export const caseEventSchema = z.object({
  id: z.number().int().nonnegative(),
  caseId: idSchema,
  clientId: idSchema,
  change: caseChangeSchema,
  at: isoDateTimeSchema,
});
export type CaseEvent = z.infer<typeof caseEventSchema>;

/**
 * `event: reset`: the server cannot say what the client missed (its `Last-Event-ID` is older than the day of events
 * kept, or unknown; or the instance lost its database listener for a while), so the client re-reads everything.
 */
export const streamResetReasons = ["unknown-id", "too-old", "listener-gap"] as const;
export const streamResetSchema = z.object({ reason: z.enum(streamResetReasons) });
export type StreamReset = z.infer<typeof streamResetSchema>;

/**
 * `event: ready`, first on every stream: the newest event id at connection time (null: none kept), which is also the
 * frame's SSE `id`, so a client that reconnects later resumes from here even if no case event came in between.
 */
export const streamReadySchema = z.object({ lastEventId: z.number().int().nonnegative().nullable() });
export type StreamReady = z.infer<typeof streamReadySchema>;

/**
 * The frames of `GET /api/events` (text/event-stream), each `event: <name>` + `data: <JSON>`: `ready` once, then
 * `case` events (to subscribers allowed `cases:read`) and `reset` when the client must re-read. A comment line
 * (`: heartbeat`) every 15 s keeps proxies from closing an idle stream; the first frame carries a `retry:` hint.
 */
export const eventStreamFrameSchema = z.discriminatedUnion("event", [
  z.object({ event: z.literal("ready"), data: streamReadySchema }),
  z.object({ event: z.literal("case"), data: caseEventSchema }),
  z.object({ event: z.literal("reset"), data: streamResetSchema }),
]);
export type EventStreamFrame = z.infer<typeof eventStreamFrameSchema>;

/** Headers the stream reads: the id of the last event the client saw, to replay what came after it. */
export const eventStreamHeadersSchema = z.object({ "last-event-id": z.string().max(40).optional() });
