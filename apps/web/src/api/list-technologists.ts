import { queryOptions, useQuery } from "@tanstack/react-query";
import { type Technologist, technologistPageSchema, userRoutes } from "@vigil/contract";
import { requestData } from "../lib/api-client";
import { apiPath } from "../lib/api-paths";
import { sharedKeys } from "./query-keys";

/** `GET /users/continuous-monitoring/technologists`: enabled technologists by name (one page of 200). */
export function fetchTechnologists(signal?: AbortSignal): Promise<Technologist[]> {
  return requestData("GET", apiPath(userRoutes.listTechnologists), technologistPageSchema, {
    query: { limit: 200 },
    signal,
  }).then((page) => page.items);
}

export function technologistsQueryOptions() {
  return queryOptions({
    queryKey: sharedKeys.technologists(),
    queryFn: ({ signal }) => fetchTechnologists(signal),
    staleTime: 60_000,
  });
}

export function useTechnologists(options: { enabled?: boolean } = {}) {
  return useQuery({ ...technologistsQueryOptions(), enabled: options.enabled ?? true });
}
