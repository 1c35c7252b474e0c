import { queryOptions, useQuery } from "@tanstack/react-query";
import { type CaseTimeline, caseRoutes, caseTimelineSchema } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { caseKeys } from "./query-keys";

/** `GET /continuous-monitoring/cases/{id}/timeline`: actions, moves and their actions, oldest first. */
export function fetchCaseTimeline(caseId: string, signal?: AbortSignal): Promise<CaseTimeline> {
  return requestData("GET", apiPath(caseRoutes.getCaseTimeline, { id: caseId }), caseTimelineSchema, { signal });
}

export function caseTimelineQueryOptions(caseId: string) {
  return queryOptions({
    queryKey: caseKeys.timeline(caseId),
    queryFn: ({ signal }) => fetchCaseTimeline(caseId, signal),
    staleTime: 0,
  });
}

export function useCaseTimeline(caseId: string) {
  return useQuery(caseTimelineQueryOptions(caseId));
}
