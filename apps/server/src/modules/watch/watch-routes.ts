import { watchRoutes } from "@vigil/contract";
import type { FastifyInstance } from "fastify";
import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import { registerRoute } from "../../http/register-route.js";
import { getWatchBoard } from "./board-service.js";
import { getCaseClocks } from "./watch-service.js";

/** The watch (PRODUCT.md §10): each case's service clocks, and the board of every open case's next one. */
export function registerWatchRoutes(app: FastifyInstance, db: Db, config: Config): void {
  registerRoute(app, "getCaseClocks", watchRoutes.getCaseClocks, ({ params }) =>
    getCaseClocks(db, params.id, config.watch),
  );
  registerRoute(app, "getWatchBoard", watchRoutes.getWatchBoard, ({ query, principal }) =>
    getWatchBoard(db, query, principal, config.watch),
  );
}
