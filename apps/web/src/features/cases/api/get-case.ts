import { queryOptions, useQuery } from "@tanstack/react-query";
import { type Case, caseRoutes, caseSchema } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { caseKeys } from "./query-keys";

/** `GET /continuous-monitoring/cases/{id}`: the case, its header data and what the caller may do now. */
export function fetchCase(caseId: string, signal?: AbortSignal): Promise<Case> {
  return requestData("GET", apiPath(caseRoutes.getCase, { id: caseId }), caseSchema, {
    signal,
    // A wrong id in the URL is shown as "not found" on the page itself.
    expectedStatuses: [404],
  });
}

export function caseQueryOptions(caseId: string) {
  return queryOptions({
    queryKey: caseKeys.case(caseId),
    queryFn: ({ signal }) => fetchCase(caseId, signal),
    // Others move the case and change what this user may do with it: each visit reads it again.
    staleTime: 0,
  });
}

export function useCase(caseId: string) {
  return useQuery(caseQueryOptions(caseId));
}
