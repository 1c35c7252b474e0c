import { routes } from "@vigil/contract";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.js";
import { registerRoute } from "../../http/register-route.js";
import { buildBreadcrumbs, buildMenu } from "./chrome-service.js";

export function registerChromeRoutes(app: FastifyInstance, db: Db): void {
  registerRoute(app, "getChrome", routes.getChrome, async ({ principal }) => ({ items: buildMenu(principal) }));
  registerRoute(app, "getBreadcrumbs", routes.getBreadcrumbs, async ({ query, principal }) => ({
    items: await buildBreadcrumbs(db, query.path, principal),
  }));
}
