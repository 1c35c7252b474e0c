import { queryOptions, useQuery } from "@tanstack/react-query";
import { type CaseClocks, caseClocksSchema, watchRoutes } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { caseKeys } from "./query-keys";

/** `GET /continuous-monitoring/cases/{id}/clocks`: the case's service clocks, running and stopped. */
export function fetchCaseClocks(caseId: string, signal?: AbortSignal): Promise<CaseClocks> {
  return requestData("GET", apiPath(watchRoutes.getCaseClocks, { id: caseId }), caseClocksSchema, { signal });
}

export function caseClocksQueryOptions(caseId: string) {
  return queryOptions({
    // Under the case's detail key: every workflow answer and record write that refreshes the case refreshes these.
    queryKey: caseKeys.clocks(caseId),
    queryFn: ({ signal }) => fetchCaseClocks(caseId, signal),
    staleTime: 0,
    // A clock also moves when nothing is written (a check falls due): read again every minute while shown.
    refetchInterval: 60_000,
  });
}

export function useCaseClocks(caseId: string) {
  return useQuery(caseClocksQueryOptions(caseId));
}
