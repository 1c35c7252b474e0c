import { routes } from "@vigil/contract";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.js";
import { registerRoute } from "../../http/register-route.js";
import { listAuditEvents } from "./audit-service.js";

export function registerAuditRoutes(app: FastifyInstance, db: Db): void {
  registerRoute(app, "listAuditEvents", routes.listAuditEvents, ({ query }) => listAuditEvents(db, query));
}
