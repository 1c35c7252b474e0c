import { route } from "../route-definition.js";
import { idParamsSchema } from "../schemas/common.js";
import { jobQueueSchema, retriedJobSchema } from "../schemas/jobs.js";

const tags = ["integration"];

/**
 * The job queue (docs/design/JOBS.md) beside the integration self-checks: who may run those may see the queue and
 * set a failed job going again (audited).
 */
export const jobRoutes = {
  getJobQueue: route({
    method: "GET",
    path: "/api/integration/jobs",
    summary: "The job queue per kind (waiting, running, failed in 24 h, oldest wait) and the jobs failed for good",
    tags,
    access: "integration:run",
    response: jobQueueSchema,
  }),
  retryJob: route({
    method: "POST",
    path: "/api/integration/jobs/:id/retry",
    summary: "Set a job that failed for good waiting again, due now, with its attempts counted from zero",
    tags,
    access: "integration:run",
    params: idParamsSchema,
    response: retriedJobSchema,
  }),
} as const;
