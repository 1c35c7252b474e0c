import { queryOptions, useQuery } from "@tanstack/react-query";
import { type Chrome, chromeSchema, systemRoutes } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";

/** `GET /api/chrome`: the menu filtered by the caller's groups; 403 "Access denied" for a user without any. */
export function fetchChrome(signal?: AbortSignal): Promise<Chrome> {
  return requestData("GET", apiPath(systemRoutes.getChrome), chromeSchema, { signal, expectedStatuses: [403] });
}

/** The menu is the signed-in user's own: keyed by username, so another user in the same tab never reads it. */
export function chromeQueryKey(username: string) {
  return ["chrome", "menu", username] as const;
}

export function chromeQueryOptions(username: string) {
  return queryOptions({
    queryKey: chromeQueryKey(username),
    queryFn: ({ signal }) => fetchChrome(signal),
    staleTime: 5 * 60 * 1000,
  });
}

export function useChrome(username: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...chromeQueryOptions(username), enabled: options.enabled ?? true });
}
