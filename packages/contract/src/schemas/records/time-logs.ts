import { z } from "zod";
import { authorSchema, isoDateTimeSchema } from "../common.js";
import { historyOf, itemFields, listOf, revisionRequestOf, text } from "./record-shapes.js";

export const timeLogActivities = ["setup", "monitoring", "review", "takedown", "other"] as const;
export const monitoringModes = ["unmonitored", "intermittent", "continuous"] as const;
export const monitoringModeSchema = z.enum(monitoringModes);
export type MonitoringMode = z.infer<typeof monitoringModeSchema>;

/**
 * Billable time must lie in the case's monitoring period, with these margins for the work just outside the
 * recording (hook-up before it starts, disconnecting after it ends); before the recording start is known, the
 * opening of the case bounds it. The server refuses a billable log outside; the editor says where it may lie.
 */
export const billableTimeMargins = { beforeStartHours: 6, afterEndHours: 2 } as const;

/** One contiguous segment (DOMAIN.md §2.3): billing proves durations from these. `endedAt` null = running. */
export const timeLogDataSchema = z
  .object({
    activity: z.enum(timeLogActivities),
    mode: monitoringModeSchema,
    video: z.boolean().default(false),
    startedAt: isoDateTimeSchema,
    endedAt: isoDateTimeSchema.nullable().default(null),
    billable: z.boolean().default(true),
    /** Recording channels (95700 needs at least 8); null when not recorded. */
    channels: z.number().int().min(1).max(512).nullable().default(null),
    notes: text(2000),
  })
  .refine((value) => !value.endedAt || Date.parse(value.endedAt) > Date.parse(value.startedAt), {
    message: "must be after the start",
    path: ["endedAt"],
  });
export type TimeLogData = z.infer<typeof timeLogDataSchema>;
export type TimeLogInput = z.input<typeof timeLogDataSchema>;

export const timeLogRevisionRequestSchema = z.discriminatedUnion("change", [
  ...revisionRequestOf(timeLogDataSchema),
  /** Stop a running log (now, or at `endedAt`); on `time-logs/latest` the base may be left out. */
  z.object({
    change: z.literal("clock-out"),
    baseRevision: z.number().int().min(1).optional(),
    endedAt: isoDateTimeSchema.optional(),
  }),
]);

export type TimeLogRevisionRequest = z.input<typeof timeLogRevisionRequestSchema>;

export const timeLogItemSchema = z.object({
  ...itemFields,
  kind: z.literal("time-log"),
  data: timeLogDataSchema,
  /** Whose time this is: the user who started the log. */
  technologist: authorSchema,
  running: z.boolean(),
  /** Up to now while running. */
  durationMinutes: z.number().int().min(0),
  /**
   * The most patients (cases with a log of the same mode) this technologist had at once during this log, and
   * the configured cap for the mode (null for unmonitored, which has none).
   */
  concurrentPeak: z.number().int().min(1),
  cap: z.number().int().nullable(),
  overCap: z.boolean(),
});
export type TimeLogItem = z.infer<typeof timeLogItemSchema>;

export const timeLogListSchema = listOf(
  timeLogItemSchema,
  z.object({
    /** The caller's running log on this case, if any (the timer's state). */
    runningMine: timeLogItemSchema.nullable(),
    caps: z.object({ intermittent: z.number().int(), continuous: z.number().int() }),
    /** Each technologist with a running log here: their patients now, per mode, against the caps. */
    technologists: z.array(
      z.object({
        technologist: authorSchema,
        intermittent: z.number().int().min(0),
        continuous: z.number().int().min(0),
        overCap: z.boolean(),
      }),
    ),
    /** Intermittent monitoring needs a documented review check at least every 2 h (DOMAIN.md §2.3). */
    reviewCheck: z.object({
      required: z.boolean(),
      lastAt: isoDateTimeSchema.nullable(),
      dueAt: isoDateTimeSchema.nullable(),
      overdue: z.boolean(),
    }),
    billableMinutes: z.number().int().min(0),
  }),
);

export type TimeLogList = z.infer<typeof timeLogListSchema>;

export const timeLogHistorySchema = historyOf(timeLogItemSchema, timeLogDataSchema);
