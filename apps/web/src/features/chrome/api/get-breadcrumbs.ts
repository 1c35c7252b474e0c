import { queryOptions, useQuery } from "@tanstack/react-query";
import { breadcrumbsSchema, systemRoutes } from "@vigil/contract";
import type { z } from "zod";
import { sharedKeys } from "../../../api/query-keys";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";

export type Breadcrumbs = z.infer<typeof breadcrumbsSchema>;

/** `GET /api/chrome/breadcrumbs?path=…`: the trail for a web route, entity names resolved by the server. */
export function fetchBreadcrumbs(path: string, signal?: AbortSignal): Promise<Breadcrumbs> {
  return requestData("GET", apiPath(systemRoutes.getBreadcrumbs), breadcrumbsSchema, { query: { path }, signal });
}

export function breadcrumbsQueryOptions(path: string) {
  return queryOptions({
    queryKey: [...sharedKeys.breadcrumbs(), path] as const,
    queryFn: ({ signal }) => fetchBreadcrumbs(path, signal),
    staleTime: 60_000,
  });
}

export function useBreadcrumbs(path: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...breadcrumbsQueryOptions(path), enabled: options.enabled ?? true });
}
