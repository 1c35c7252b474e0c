import { watchRoutes } from "@vigil/contract";
import type { FastifyInstance } from "fastify";
import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import { registerRoute } from "../../http/register-route.js";
import { getCaseClocks } from "./watch-service.js";

/** The watch (PRODUCT.md §10): each case's service clocks. */
export function registerWatchRoutes(app: FastifyInstance, db: Db, config: Config): void {
  registerRoute(app, "getCaseClocks", watchRoutes.getCaseClocks, ({ params }) =>
    getCaseClocks(db, params.id, config.watch),
  );
}
