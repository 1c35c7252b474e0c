import { serviceLevelRoutes } from "@vigil/contract";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.js";
import { registerRoute } from "../../http/register-route.js";
import { getServiceLevelPeople, getServiceLevelReport } from "./service-level-service.js";

/** The monthly service-level report (PRODUCT.md §10), and its figures per person for administrators. */
export function registerServiceLevelRoutes(app: FastifyInstance, db: Db): void {
  registerRoute(app, "getServiceLevelReport", serviceLevelRoutes.getServiceLevelReport, ({ params }) =>
    getServiceLevelReport(db, params.clientId, params.month),
  );
  registerRoute(app, "getServiceLevelPeople", serviceLevelRoutes.getServiceLevelPeople, ({ params }) =>
    getServiceLevelPeople(db, params.clientId, params.month),
  );
}
