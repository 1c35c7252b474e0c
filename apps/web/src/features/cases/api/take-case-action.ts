import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type Case, type CaseActionRequest, caseRoutes, caseSchema } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { applyCaseChange } from "./case-cache";

export type CaseActionVariables = { caseId: string; request: CaseActionRequest };

/**
 * `POST /continuous-monitoring/cases/{id}/actions`: assign or end a technologist, assign a reviewer, set the
 * priority, acknowledge a STAT case. A refusal (403, 409 with the failed checks in words) is shown by the caller.
 */
export function takeCaseAction({ caseId, request }: CaseActionVariables): Promise<Case> {
  return requestData("POST", apiPath(caseRoutes.takeCaseAction, { id: caseId }), caseSchema, {
    body: request,
    expectedStatuses: [400, 403, 409, 422],
  });
}

export function useTakeCaseAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: takeCaseAction,
    onSuccess: (updated) => applyCaseChange(queryClient, updated),
  });
}
