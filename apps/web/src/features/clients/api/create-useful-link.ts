import { useMutation, useQueryClient } from "@tanstack/react-query";
import { clientRoutes, type UsefulLink, type UsefulLinkInput, usefulLinkSchema } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { clientKeys } from "./query-keys";

export type CreateUsefulLinkVariables = { clientId: string; input: UsefulLinkInput };

/** `POST /continuous-monitoring/clients/{id}/useful-links` (http and https only). */
export function createUsefulLink({ clientId, input }: CreateUsefulLinkVariables): Promise<UsefulLink> {
  return requestData("POST", apiPath(clientRoutes.createUsefulLink, { id: clientId }), usefulLinkSchema, {
    body: input,
    expectedStatuses: [400],
  });
}

export function useCreateUsefulLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUsefulLink,
    onSuccess: (_link, { clientId }) => queryClient.invalidateQueries({ queryKey: clientKeys.usefulLinks(clientId) }),
  });
}
