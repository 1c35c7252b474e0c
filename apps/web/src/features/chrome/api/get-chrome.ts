import { queryOptions, useQuery } from "@tanstack/react-query";
import { type Chrome, chromeSchema } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";

/** `GET /api/chrome`: the menu filtered by the caller's groups; 403 "Access denied" for a user without any. */
export function fetchChrome(signal?: AbortSignal): Promise<Chrome> {
  return requestData("GET", "/chrome", chromeSchema, { signal, expectedStatuses: [403] });
}

export const chromeQueryKey = ["chrome", "menu"] as const;

export function chromeQueryOptions() {
  return queryOptions({
    queryKey: chromeQueryKey,
    queryFn: ({ signal }) => fetchChrome(signal),
    staleTime: 5 * 60 * 1000,
  });
}

export function useChrome(options: { enabled?: boolean } = {}) {
  return useQuery({ ...chromeQueryOptions(), enabled: options.enabled ?? true });
}
