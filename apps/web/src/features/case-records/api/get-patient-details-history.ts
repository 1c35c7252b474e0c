import { queryOptions, useQuery } from "@tanstack/react-query";
import { type PatientDetailsHistory, recordRoutesTable } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { recordKeys } from "./query-keys";

/** `GET cases/monitoring/{id}/patient-details/revisions`: every revision, oldest first, with author, time and reason. */
export function fetchPatientDetailsHistory(caseId: string, signal?: AbortSignal): Promise<PatientDetailsHistory> {
  const route = recordRoutesTable.getPatientDetailsHistory;
  return requestData("GET", apiPath(route, { id: caseId }), route.response, { signal });
}

export function patientDetailsHistoryQueryOptions(caseId: string) {
  return queryOptions({
    queryKey: recordKeys.histories(caseId, "patient-details"),
    queryFn: ({ signal }) => fetchPatientDetailsHistory(caseId, signal),
    staleTime: 0,
  });
}

export function usePatientDetailsHistory(caseId: string) {
  return useQuery(patientDetailsHistoryQueryOptions(caseId));
}
