import { queryOptions, useQuery } from "@tanstack/react-query";
import { type PatientDetailsView, recordRoutesTable } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { recordKeys } from "./query-keys";

/** `GET cases/monitoring/{id}/patient-details`: the current revision (its number is the ETag) and whether the caller may change it. */
export function fetchPatientDetails(caseId: string, signal?: AbortSignal): Promise<PatientDetailsView> {
  const route = recordRoutesTable.getPatientDetails;
  return requestData("GET", apiPath(route, { id: caseId }), route.response, { signal });
}

export function patientDetailsQueryOptions(caseId: string) {
  return queryOptions({
    queryKey: recordKeys.patientDetails(caseId),
    queryFn: ({ signal }) => fetchPatientDetails(caseId, signal),
    staleTime: 0,
  });
}

export function usePatientDetails(caseId: string) {
  return useQuery(patientDetailsQueryOptions(caseId));
}
