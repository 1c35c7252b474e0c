import { queryOptions, useQuery } from "@tanstack/react-query";
import { caseRoutes, type ProtocolRevision, protocolRevisionSchema } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { caseKeys } from "./query-keys";

/** `GET /continuous-monitoring/cases/closed/{id}/client-protocol`: the revision pinned when monitoring started. */
export function fetchClosedCaseProtocol(caseId: string, signal?: AbortSignal): Promise<ProtocolRevision> {
  return requestData("GET", apiPath(caseRoutes.getClosedCaseProtocol, { id: caseId }), protocolRevisionSchema, {
    signal,
    expectedStatuses: [404],
  });
}

export function closedCaseProtocolQueryOptions(caseId: string) {
  return queryOptions({
    queryKey: caseKeys.clientProtocol(caseId),
    queryFn: ({ signal }) => fetchClosedCaseProtocol(caseId, signal),
  });
}

export function useClosedCaseProtocol(caseId: string) {
  return useQuery(closedCaseProtocolQueryOptions(caseId));
}
