import { useMutation, useQueryClient } from "@tanstack/react-query";
import { clientRoutes } from "@vigil/contract";
import { z } from "zod";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { clientKeys } from "./query-keys";

export type RemoveContactVariables = { clientId: string; contactId: string };

/** `DELETE /continuous-monitoring/clients/{id}/contacts/{contactId}` (204, audited). */
export async function removeContact({ clientId, contactId }: RemoveContactVariables): Promise<void> {
  await requestData("DELETE", apiPath(clientRoutes.removeContact, { id: clientId, contactId }), z.unknown());
}

export function useRemoveContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeContact,
    onSuccess: (_nothing, { clientId }) => queryClient.invalidateQueries({ queryKey: clientKeys.contacts(clientId) }),
  });
}
