import { route } from "../route-definition.js";
import { idParamsSchema } from "../schemas/common.js";
import { caseClocksSchema, watchBoardQuerySchema, watchBoardSchema } from "../schemas/watch.js";

const base = "/api/continuous-monitoring";

/** The watch (PRODUCT.md §10): what each case owes its client, and by when. */
export const watchRoutes = {
  getCaseClocks: route({
    method: "GET",
    path: `${base}/cases/:id/clocks`,
    summary: "Every service clock of one case (running and stopped), in the order they fall due",
    tags: ["watch"],
    access: "cases:read",
    params: idParamsSchema,
    response: caseClocksSchema,
  }),
  getWatchBoard: route({
    method: "GET",
    path: `${base}/board`,
    summary:
      "The board: every open case's next-due service clock (or one kind's), sorted by time to breach, with patient and client",
    tags: ["watch"],
    access: "cases:read",
    // Rows name patients: every read is audited like the case queues.
    patientData: true,
    querystring: watchBoardQuerySchema,
    response: watchBoardSchema,
  }),
} as const;
