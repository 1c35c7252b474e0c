import { route } from "../route-definition.js";
import { idParamsSchema } from "../schemas/common.js";
import {
  clockAlertListQuerySchema,
  clockAlertPageSchema,
  clockAlertSchema,
  clockAlertsReadSchema,
  notificationPreferencesInputSchema,
  notificationPreferencesSchema,
} from "../schemas/notifications.js";

const base = "/api/notifications";
const tags = ["notifications"];

/**
 * The signed-in user's own notices (PRODUCT.md §10: a clock's owner is told when it turns due soon or overdue) and
 * how they want them. Every signed-in user has a list; each sees and marks only their own.
 */
export const notificationRoutes = {
  listClockAlerts: route({
    method: "GET",
    path: `${base}/clock-alerts`,
    summary: "The caller's clock alerts, newest first, paged, with the count still unread",
    tags,
    access: "signed-in",
    querystring: clockAlertListQuerySchema,
    response: clockAlertPageSchema,
  }),
  markClockAlertRead: route({
    method: "POST",
    path: `${base}/clock-alerts/:id/read`,
    summary: "Marks one of the caller's clock alerts read (404 for anyone else's)",
    tags,
    access: "signed-in",
    params: idParamsSchema,
    response: clockAlertSchema,
  }),
  markAllClockAlertsRead: route({
    method: "POST",
    path: `${base}/clock-alerts/read`,
    summary: "Marks every unread clock alert of the caller read",
    tags,
    access: "signed-in",
    response: clockAlertsReadSchema,
  }),
  getNotificationPreferences: route({
    method: "GET",
    path: `${base}/preferences`,
    summary: "The caller's notification preferences (e-mail copies of clock alerts)",
    tags,
    access: "signed-in",
    response: notificationPreferencesSchema,
  }),
  setNotificationPreferences: route({
    method: "PUT",
    path: `${base}/preferences`,
    summary: "Replaces the caller's notification preferences",
    tags,
    access: "signed-in",
    body: notificationPreferencesInputSchema,
    response: notificationPreferencesSchema,
  }),
} as const;
