import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  type ClockAlert,
  type ClockAlertPage,
  type ClockAlertsRead,
  clockAlertPageSchema,
  clockAlertSchema,
  clockAlertsReadSchema,
  notificationRoutes,
} from "@vigil/contract";
import { requestData } from "../lib/api-client";
import { apiPath } from "../lib/api-paths";
import { sharedKeys } from "./query-keys";

/** How often the app bar asks for new alerts: a sweep runs every 30 s (WATCH_ALERT_SWEEP_SECONDS) by default. */
export const clockAlertsRefreshMs = 30_000;

/** `GET /notifications/clock-alerts`: the newest `limit` of the signed-in user's alerts and the unread count. */
export function fetchClockAlerts(limit: number, signal?: AbortSignal): Promise<ClockAlertPage> {
  return requestData("GET", apiPath(notificationRoutes.listClockAlerts), clockAlertPageSchema, {
    query: { limit },
    signal,
  });
}

export function clockAlertsQueryOptions(limit: number) {
  return queryOptions({
    queryKey: [...sharedKeys.clockAlerts(), "list", limit] as const,
    queryFn: ({ signal }) => fetchClockAlerts(limit, signal),
    refetchInterval: clockAlertsRefreshMs,
  });
}

/** The alerts and their unread count, read again every 30 s and whenever `sharedKeys.clockAlerts()` is invalidated. */
export function useClockAlerts(limit: number) {
  return useQuery(clockAlertsQueryOptions(limit));
}

export function markClockAlertRead(alertId: string): Promise<ClockAlert> {
  return requestData("POST", apiPath(notificationRoutes.markClockAlertRead, { id: alertId }), clockAlertSchema);
}

export function markAllClockAlertsRead(): Promise<ClockAlertsRead> {
  return requestData("POST", apiPath(notificationRoutes.markAllClockAlertsRead), clockAlertsReadSchema);
}

export function useMarkClockAlertRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markClockAlertRead,
    onSettled: () => queryClient.invalidateQueries({ queryKey: sharedKeys.clockAlerts() }),
  });
}

export function useMarkAllClockAlertsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markAllClockAlertsRead,
    onSettled: () => queryClient.invalidateQueries({ queryKey: sharedKeys.clockAlerts() }),
  });
}
