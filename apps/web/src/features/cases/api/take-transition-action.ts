import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  caseRoutes,
  type TransitionActionRequest,
  type TransitionResult,
  transitionResultSchema,
} from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { applyCaseChange } from "./case-cache";

export type TransitionActionVariables = { caseId: string; transitionId: string; request: TransitionActionRequest };

/** `POST …/cases/{id}/transitions/{transitionId}/actions`: approve, reject, cancel or comment on a pending move. */
export function takeTransitionAction({
  caseId,
  transitionId,
  request,
}: TransitionActionVariables): Promise<TransitionResult> {
  return requestData(
    "POST",
    apiPath(caseRoutes.takeTransitionAction, { id: caseId, transitionId }),
    transitionResultSchema,
    { body: request, expectedStatuses: [400, 403, 409, 422] },
  );
}

export function useTakeTransitionAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: takeTransitionAction,
    onSuccess: (result) => applyCaseChange(queryClient, result.case, { stageMayChange: true }),
  });
}
