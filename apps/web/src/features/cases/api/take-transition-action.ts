import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  caseRoutes,
  type TransitionActionRequest,
  type TransitionResult,
  transitionResultSchema,
} from "@vigil/contract";
import { sharedKeys } from "../../../api/query-keys";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { caseKeys } from "./query-keys";

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
    onSuccess: (result) => {
      queryClient.setQueryData(caseKeys.case(result.case.id), result.case);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: caseKeys.timeline(result.case.id) }),
        queryClient.invalidateQueries({ queryKey: caseKeys.lists() }),
        // The breadcrumbs name the case under its stage.
        queryClient.invalidateQueries({ queryKey: sharedKeys.breadcrumbs() }),
      ]);
    },
  });
}
