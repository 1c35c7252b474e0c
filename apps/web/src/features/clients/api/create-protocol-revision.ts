import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  type CreateProtocolRevision,
  clientRoutes,
  type ProtocolRevision,
  protocolRevisionSchema,
} from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { clientKeys } from "./query-keys";

export type CreateProtocolRevisionVariables = { clientId: string; input: CreateProtocolRevision };

/**
 * `POST /continuous-monitoring/clients/{id}/protocol/revisions`, naming `baseRevision`. A stale base gets 409 with
 * `details.current` (the revision someone else appended); the editor offers to rebase onto it.
 */
export function createProtocolRevision({
  clientId,
  input,
}: CreateProtocolRevisionVariables): Promise<ProtocolRevision> {
  return requestData("POST", apiPath(clientRoutes.createProtocolRevision, { id: clientId }), protocolRevisionSchema, {
    body: input,
    expectedStatuses: [400, 409],
  });
}

export function useCreateProtocolRevision() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProtocolRevision,
    onSuccess: (_revision, { clientId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: clientKeys.protocol(clientId) }),
        queryClient.invalidateQueries({ queryKey: clientKeys.transferForm(clientId) }),
      ]),
  });
}
