import { useMutation, useQueryClient } from "@tanstack/react-query";
import { clientRoutes } from "@vigil/contract";
import { z } from "zod";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { clientKeys } from "./query-keys";

export type RemoveUsefulLinkVariables = { clientId: string; linkId: string };

/** `DELETE /continuous-monitoring/clients/{id}/useful-links/{linkId}` (204, audited). */
export async function removeUsefulLink({ clientId, linkId }: RemoveUsefulLinkVariables): Promise<void> {
  await requestData("DELETE", apiPath(clientRoutes.removeUsefulLink, { id: clientId, linkId }), z.unknown());
}

export function useRemoveUsefulLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeUsefulLink,
    onSuccess: (_nothing, { clientId }) =>
      queryClient.invalidateQueries({ queryKey: clientKeys.usefulLinks(clientId) }),
  });
}
