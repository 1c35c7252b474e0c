import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { type AssignmentsPage, assignmentsPageSchema, caseRoutes } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { type AssignmentsParams, caseKeys } from "./query-keys";

/** `GET /continuous-monitoring/cases/assignments`: technologists with their active assignments and load. */
export function fetchAssignments(params: AssignmentsParams, signal?: AbortSignal): Promise<AssignmentsPage> {
  return requestData("GET", apiPath(caseRoutes.listAssignments), assignmentsPageSchema, { query: params, signal });
}

export function assignmentsQueryOptions(params: AssignmentsParams) {
  return queryOptions({
    queryKey: caseKeys.assignments(params),
    queryFn: ({ signal }) => fetchAssignments(params, signal),
    placeholderData: keepPreviousData,
  });
}

export function useAssignments(params: AssignmentsParams) {
  return useQuery(assignmentsQueryOptions(params));
}
