import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  type NotificationPreferences,
  type NotificationPreferencesInput,
  notificationPreferencesSchema,
  notificationRoutes,
} from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";

export const notificationPreferencesQueryKey = ["account", "notification-preferences"] as const;

/** `GET /notifications/preferences`: whether the signed-in user gets e-mail copies of their clock alerts. */
export function fetchNotificationPreferences(signal?: AbortSignal): Promise<NotificationPreferences> {
  return requestData("GET", apiPath(notificationRoutes.getNotificationPreferences), notificationPreferencesSchema, {
    signal,
  });
}

export function useNotificationPreferences() {
  return useQuery(
    queryOptions({
      queryKey: notificationPreferencesQueryKey,
      queryFn: ({ signal }) => fetchNotificationPreferences(signal),
    }),
  );
}

export function setNotificationPreferences(input: NotificationPreferencesInput): Promise<NotificationPreferences> {
  return requestData("PUT", apiPath(notificationRoutes.setNotificationPreferences), notificationPreferencesSchema, {
    body: input,
  });
}

export function useSetNotificationPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setNotificationPreferences,
    onSuccess: (saved) => queryClient.setQueryData(notificationPreferencesQueryKey, saved),
  });
}
