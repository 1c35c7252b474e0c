import { route } from "../route-definition.js";
import { idParamsSchema } from "../schemas/common.js";
import { caseClocksSchema } from "../schemas/watch.js";

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
} as const;
