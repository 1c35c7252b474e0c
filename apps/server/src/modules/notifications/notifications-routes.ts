import { notificationRoutes } from "@vigil/contract";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.js";
import { actorOf } from "../../http/actor.js";
import { registerRoute } from "../../http/register-route.js";
import {
  getNotificationPreferences,
  listOwnClockAlerts,
  markAllOwnClockAlertsRead,
  markOwnClockAlertRead,
  setNotificationPreferences,
} from "./notifications-service.js";

/** The signed-in user's own clock alerts and notification preferences (PRODUCT.md §10). */
export function registerNotificationRoutes(app: FastifyInstance, db: Db): void {
  registerRoute(app, "listClockAlerts", notificationRoutes.listClockAlerts, ({ query, principal }) =>
    listOwnClockAlerts(db, principal.username, query),
  );
  registerRoute(app, "markClockAlertRead", notificationRoutes.markClockAlertRead, ({ params, principal }) =>
    markOwnClockAlertRead(db, principal.username, params.id),
  );
  registerRoute(app, "markAllClockAlertsRead", notificationRoutes.markAllClockAlertsRead, ({ principal }) =>
    markAllOwnClockAlertsRead(db, principal.username),
  );
  registerRoute(app, "getNotificationPreferences", notificationRoutes.getNotificationPreferences, ({ principal }) =>
    getNotificationPreferences(db, principal.username),
  );
  registerRoute(
    app,
    "setNotificationPreferences",
    notificationRoutes.setNotificationPreferences,
    ({ body, principal, request }) => setNotificationPreferences(db, body, actorOf(principal, request)),
  );
}
