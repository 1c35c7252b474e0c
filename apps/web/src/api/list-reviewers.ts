import { queryOptions, useQuery } from "@tanstack/react-query";
import { caseRoutes, type Technologist, technologistPageSchema } from "@vigil/contract";
import { requestData } from "../lib/api-client";
import { apiPath } from "../lib/api-paths";
import { sharedKeys } from "./query-keys";

/** `GET /users/continuous-monitoring/reviewers`: enabled reviewers by name (one page of 200). */
export function fetchReviewers(signal?: AbortSignal): Promise<Technologist[]> {
  return requestData("GET", apiPath(caseRoutes.listReviewers), technologistPageSchema, {
    query: { limit: 200 },
    signal,
  }).then((page) => page.items);
}

export function reviewersQueryOptions() {
  return queryOptions({
    queryKey: sharedKeys.reviewers(),
    queryFn: ({ signal }) => fetchReviewers(signal),
    staleTime: 60_000,
  });
}

export function useReviewers(options: { enabled?: boolean } = {}) {
  return useQuery({ ...reviewersQueryOptions(), enabled: options.enabled ?? true });
}
