import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type Case, type CreateCaseRequest, caseRoutes, caseSchema } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { caseKeys } from "./query-keys";

/** `POST /continuous-monitoring/cases`: 400 names the fields, 409/422 say why the client cannot take a case. */
export function createCase(input: CreateCaseRequest): Promise<Case> {
  return requestData("POST", apiPath(caseRoutes.createCase), caseSchema, {
    body: input,
    expectedStatuses: [400, 409, 422],
  });
}

export function useCreateCase() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCase,
    onSuccess: (created) => {
      queryClient.setQueryData(caseKeys.case(created.id), created);
      return queryClient.invalidateQueries({ queryKey: caseKeys.lists() });
    },
  });
}
