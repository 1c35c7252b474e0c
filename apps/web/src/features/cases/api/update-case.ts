import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type Case, caseRoutes, caseSchema, type UpdateCaseRequest } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { ifMatch } from "../../../lib/if-match";
import { applyCaseChange } from "./case-cache";

export type UpdateCaseVariables = { caseId: string; version: number; input: UpdateCaseRequest };

/**
 * `PATCH /continuous-monitoring/cases/{id}` with `If-Match` = the version the user started editing from.
 * 412 means someone saved first (`details.current` is their version); the form handles it, never overwrites.
 */
export function updateCase({ caseId, version, input }: UpdateCaseVariables): Promise<Case> {
  return requestData("PATCH", apiPath(caseRoutes.updateCase, { id: caseId }), caseSchema, {
    body: input,
    headers: ifMatch(version),
    expectedStatuses: [400, 409, 412],
  });
}

export function useUpdateCase() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCase,
    onSuccess: (saved) => applyCaseChange(queryClient, saved),
  });
}
