import { z } from "zod";
import { idSchema } from "./common.js";

// ---------------------------------------------------------------------------------------------------------------
// The job queue: work done later (docs/design/JOBS.md), as administrators see it on the integration page
// ---------------------------------------------------------------------------------------------------------------

export const jobKindSummarySchema = z.object({
  kind: z.string(),
  /** Waiting, due or not yet (a retry's back-off). */
  waiting: z.number().int(),
  running: z.number().int(),
  failedLastDay: z.number().int(),
  /** How long the oldest due waiting job has waited past its time; null when none is due. */
  oldestWaitingSeconds: z.number().int().nullable(),
  /** The kind's limit for that wait; null when it has none (or this server does not run the kind). */
  maxWaitSeconds: z.number().int().nullable(),
  /** The oldest due job waited longer than the limit: no instance is running this kind. */
  overdue: z.boolean(),
});
export type JobKindSummary = z.infer<typeof jobKindSummarySchema>;

export const failedJobSchema = z.object({
  id: idSchema,
  kind: z.string(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type FailedJob = z.infer<typeof failedJobSchema>;

/** Per kind, and the jobs that failed for good (newest first, at most 100). */
export const jobQueueSchema = z.object({
  kinds: z.array(jobKindSummarySchema),
  failed: z.array(failedJobSchema),
});
export type JobQueue = z.infer<typeof jobQueueSchema>;

/** A failed job set waiting again: due now, its attempts counted from zero. */
export const retriedJobSchema = z.object({ id: idSchema, kind: z.string(), state: z.literal("waiting") });
export type RetriedJob = z.infer<typeof retriedJobSchema>;
