import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type CriticalFinding, criticalFindingRoutes, criticalFindingSchema } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { applyFindingChange } from "./finding-cache";

export type CancelFindingVariables = { caseId: string; findingId: string; reason: string };

/** `POST …/critical-findings/{findingId}/cancellation`: cancels an open finding with a reason; stops the escalation. */
export function cancelCriticalFinding({ caseId, findingId, reason }: CancelFindingVariables): Promise<CriticalFinding> {
  return requestData(
    "POST",
    apiPath(criticalFindingRoutes.cancelCriticalFinding, { id: caseId, findingId }),
    criticalFindingSchema,
    { body: { reason }, expectedStatuses: [400, 403, 404, 409, 422] },
  );
}

export function useCancelCriticalFinding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelCriticalFinding,
    onSuccess: (finding) => applyFindingChange(queryClient, finding),
  });
}
