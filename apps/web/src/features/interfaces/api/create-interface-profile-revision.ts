import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type CreateInterfaceProfileRevision, type InterfaceProfileRevision, routes } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { profileKeys } from "./profile-keys";

export type CreateInterfaceProfileRevisionVariables = { clientId: string; input: CreateInterfaceProfileRevision };

/**
 * `POST /continuous-monitoring/clients/{id}/interface-profile/revisions`, naming `baseRevision`. A stale base gets
 * 409 with `details.current`; an identity another client owns gets 409 without it.
 */
export function createInterfaceProfileRevision({
  clientId,
  input,
}: CreateInterfaceProfileRevisionVariables): Promise<InterfaceProfileRevision> {
  return requestData(
    "POST",
    apiPath(routes.createInterfaceProfileRevision, { id: clientId }),
    routes.createInterfaceProfileRevision.response,
    { body: input, expectedStatuses: [400, 409] },
  );
}

export function useCreateInterfaceProfileRevision() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createInterfaceProfileRevision,
    onSuccess: (_revision, { clientId }) => queryClient.invalidateQueries({ queryKey: profileKeys.profile(clientId) }),
  });
}
