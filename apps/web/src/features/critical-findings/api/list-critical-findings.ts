import { queryOptions, useQuery } from "@tanstack/react-query";
import { type CriticalFindingList, criticalFindingListSchema, criticalFindingRoutes } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { findingKeys } from "./query-keys";

/** `GET /continuous-monitoring/cases/{id}/critical-findings`: newest first, with recipients and deliveries. */
export function fetchCriticalFindings(caseId: string, signal?: AbortSignal): Promise<CriticalFindingList> {
  return requestData(
    "GET",
    apiPath(criticalFindingRoutes.listCriticalFindings, { id: caseId }),
    criticalFindingListSchema,
    { signal },
  );
}

export function criticalFindingsQueryOptions(caseId: string) {
  return queryOptions({
    queryKey: findingKeys.list(caseId),
    queryFn: ({ signal }) => fetchCriticalFindings(caseId, signal),
    staleTime: 0,
    // Deliveries and escalations move without anyone on this screen writing: the case events bring them, and a
    // read every 30 s covers a stream that is reconnecting.
    refetchInterval: 30_000,
  });
}

export function useCriticalFindings(caseId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...criticalFindingsQueryOptions(caseId), enabled });
}
