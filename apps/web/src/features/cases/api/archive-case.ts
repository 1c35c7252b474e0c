import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type Case, caseRoutes, caseSchema } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { caseKeys } from "./query-keys";

/** `DELETE /continuous-monitoring/cases/{id}`: archives the case (intake only, or any stage for administrators). */
export function archiveCase(caseId: string): Promise<Case> {
  return requestData("DELETE", apiPath(caseRoutes.archiveCase, { id: caseId }), caseSchema, {
    expectedStatuses: [403, 409],
  });
}

export function useArchiveCase() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: archiveCase,
    onSuccess: (archived) => {
      queryClient.setQueryData(caseKeys.case(archived.id), archived);
      return queryClient.invalidateQueries({ queryKey: caseKeys.lists() });
    },
  });
}
