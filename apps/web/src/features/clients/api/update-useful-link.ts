import { useMutation, useQueryClient } from "@tanstack/react-query";
import { clientRoutes, type UsefulLink, type UsefulLinkInput, usefulLinkSchema } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { ifMatch } from "../../../lib/if-match";
import { clientKeys } from "./query-keys";

export type UpdateUsefulLinkVariables = { clientId: string; linkId: string; version: number; input: UsefulLinkInput };

/** `PUT /continuous-monitoring/clients/{id}/useful-links/{linkId}` with `If-Match`; 412 when someone saved first. */
export function updateUsefulLink({ clientId, linkId, version, input }: UpdateUsefulLinkVariables): Promise<UsefulLink> {
  return requestData("PUT", apiPath(clientRoutes.updateUsefulLink, { id: clientId, linkId }), usefulLinkSchema, {
    body: input,
    headers: ifMatch(version),
    expectedStatuses: [400, 412],
  });
}

export function useUpdateUsefulLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUsefulLink,
    onSuccess: (_link, { clientId }) => queryClient.invalidateQueries({ queryKey: clientKeys.usefulLinks(clientId) }),
  });
}
