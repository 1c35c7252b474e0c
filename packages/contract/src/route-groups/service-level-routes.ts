import { route } from "../route-definition.js";
import {
  serviceLevelParamsSchema,
  serviceLevelPeopleSchema,
  serviceLevelReportSchema,
} from "../schemas/service-level.js";

const base = "/api/reporting/service-levels";

/**
 * The monthly service-level report (PRODUCT.md §10): how often each promise of a client's protocol was kept. It names
 * case numbers, never patients, so it is not patient data. The figures per technologist and reviewer are for their
 * managers: only administrators (`users:manage`, the permission that manages the staff) read them.
 */
export const serviceLevelRoutes = {
  getServiceLevelReport: route({
    method: "GET",
    path: `${base}/:clientId/:month`,
    summary: "A client's month of service clocks: kept and missed per promise, percentiles, breaches, 12-month series",
    tags: ["reporting"],
    access: "reporting:read",
    params: serviceLevelParamsSchema,
    response: serviceLevelReportSchema,
  }),
  getServiceLevelPeople: route({
    method: "GET",
    path: `${base}/:clientId/:month/people`,
    summary: "A client's month of service clocks per technologist and reviewer who owned them (administrators)",
    tags: ["reporting"],
    access: "users:manage",
    params: serviceLevelParamsSchema,
    response: serviceLevelPeopleSchema,
  }),
} as const;
