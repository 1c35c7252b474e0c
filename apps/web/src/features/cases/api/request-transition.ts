import { useMutation, useQueryClient } from "@tanstack/react-query";
import { caseRoutes, type TransitionRequest, type TransitionResult, transitionResultSchema } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { applyCaseChange } from "./case-cache";

export type TransitionVariables = { caseId: string; request: TransitionRequest };

/**
 * `POST /continuous-monitoring/cases/{id}/transitions`: move the case, or ask to (a move needing approval stays
 * pending). A refused move answers 403 or 409 whose message names the failed preconditions.
 */
export function requestTransition({ caseId, request }: TransitionVariables): Promise<TransitionResult> {
  return requestData("POST", apiPath(caseRoutes.requestTransition, { id: caseId }), transitionResultSchema, {
    body: request,
    expectedStatuses: [400, 403, 409, 422],
  });
}

export function useRequestTransition() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestTransition,
    onSuccess: (result) => applyCaseChange(queryClient, result.case, { stageMayChange: true }),
  });
}
