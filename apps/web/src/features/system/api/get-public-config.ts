import { queryOptions, useQuery } from "@tanstack/react-query";
import { type PublicConfig, publicConfigSchema, systemRoutes } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";

/** `GET /api/config`: identity endpoint and password policy, public because sign-in needs it first. */
export function fetchPublicConfig(signal?: AbortSignal): Promise<PublicConfig> {
  return requestData("GET", apiPath(systemRoutes.getPublicConfig), publicConfigSchema, { anonymous: true, signal });
}

export const publicConfigQueryKey = ["system", "config"] as const;

export function publicConfigQueryOptions() {
  return queryOptions({
    queryKey: publicConfigQueryKey,
    queryFn: ({ signal }) => fetchPublicConfig(signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function usePublicConfig() {
  return useQuery(publicConfigQueryOptions());
}
