import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  type CriticalFinding,
  criticalFindingRoutes,
  criticalFindingSchema,
  type RecordFindingAcknowledgementInput,
} from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { applyFindingChange } from "./finding-cache";

export type RecordAcknowledgementVariables = {
  caseId: string;
  findingId: string;
  input: RecordFindingAcknowledgementInput;
};

/**
 * `POST …/critical-findings/{findingId}/acknowledgement`: an acknowledgement taken by phone; it stops the escalation.
 * A finding closed meanwhile (409) is shown by the dialog.
 */
export function recordFindingAcknowledgement({
  caseId,
  findingId,
  input,
}: RecordAcknowledgementVariables): Promise<CriticalFinding> {
  return requestData(
    "POST",
    apiPath(criticalFindingRoutes.recordFindingAcknowledgement, { id: caseId, findingId }),
    criticalFindingSchema,
    { body: input, expectedStatuses: [400, 403, 404, 409, 422] },
  );
}

export function useRecordFindingAcknowledgement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: recordFindingAcknowledgement,
    onSuccess: (finding) => applyFindingChange(queryClient, finding),
  });
}
