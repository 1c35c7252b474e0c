import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type PatientDetailsRevision, recordRoutesTable, type UpdatePatientDetailsRequest } from "@vigil/contract";
import { sharedKeys } from "../../../api/query-keys";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { ifMatch } from "../../../lib/if-match";
import { recordKeys } from "./query-keys";

export type UpdatePatientDetailsVariables = {
  caseId: string;
  /** The revision the user started from: `If-Match`, so a save never lands on details they did not see. */
  revision: number;
  input: UpdatePatientDetailsRequest;
};

/**
 * `PUT cases/monitoring/{id}/patient-details` with `If-Match`: a new revision. 412 means someone saved first
 * (`details.current`); 409/403 say the stage or the caller's groups do not allow it; 400 names the fields (a
 * missing reason after monitoring among them).
 */
export function updatePatientDetails({
  caseId,
  revision,
  input,
}: UpdatePatientDetailsVariables): Promise<PatientDetailsRevision> {
  const route = recordRoutesTable.updatePatientDetails;
  return requestData("PUT", apiPath(route, { id: caseId }), route.response, {
    body: input,
    headers: ifMatch(revision),
    expectedStatuses: [400, 403, 409, 412, 428],
  });
}

export function useUpdatePatientDetails() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePatientDetails,
    // The case keeps a copy of the MRN and name (its header and the queues show them).
    onSuccess: (_saved, { caseId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: recordKeys.kind(caseId, "patient-details") }),
        queryClient.invalidateQueries({ queryKey: sharedKeys.caseDetail(caseId) }),
        queryClient.invalidateQueries({ queryKey: sharedKeys.caseLists() }),
      ]),
  });
}
