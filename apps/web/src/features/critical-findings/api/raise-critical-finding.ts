import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  type CriticalFinding,
  criticalFindingRoutes,
  criticalFindingSchema,
  type RaiseCriticalFindingInput,
} from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { applyFindingChange } from "./finding-cache";

export type RaiseFindingVariables = { caseId: string; input: RaiseCriticalFindingInput };

/**
 * `POST /continuous-monitoring/cases/{id}/critical-findings`: raises the finding; the server tells its recipients at
 * once. Field problems (400) and a case no longer in monitoring or preview (409) are shown by the dialog.
 */
export function raiseCriticalFinding({ caseId, input }: RaiseFindingVariables): Promise<CriticalFinding> {
  return requestData(
    "POST",
    apiPath(criticalFindingRoutes.raiseCriticalFinding, { id: caseId }),
    criticalFindingSchema,
    {
      body: input,
      expectedStatuses: [400, 403, 404, 409, 422],
    },
  );
}

export function useRaiseCriticalFinding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: raiseCriticalFinding,
    onSuccess: (finding) => applyFindingChange(queryClient, finding),
  });
}
