import { queryOptions, useQuery } from "@tanstack/react-query";
import { type Technologist, technologistPageSchema, userRoutes } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { reportingKeys } from "./query-keys";

/** `GET /users/continuous-monitoring/technologists`: enabled technologists by name (one page of 200). */
export function fetchTechnologistOptions(signal?: AbortSignal): Promise<Technologist[]> {
  return requestData("GET", apiPath(userRoutes.listTechnologists), technologistPageSchema, {
    query: { limit: 200 },
    signal,
  }).then((page) => page.items);
}

export function technologistOptionsQueryOptions() {
  return queryOptions({
    queryKey: reportingKeys.technologistOptions(),
    queryFn: ({ signal }) => fetchTechnologistOptions(signal),
    staleTime: 60_000,
  });
}

export function useTechnologistOptions() {
  return useQuery(technologistOptionsQueryOptions());
}
