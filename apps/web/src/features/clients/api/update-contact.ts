import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type Contact, type ContactInput, clientRoutes, contactSchema } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { ifMatch } from "../../../lib/if-match";
import { clientKeys } from "./query-keys";

export type UpdateContactVariables = { clientId: string; contactId: string; version: number; input: ContactInput };

/** `PUT /continuous-monitoring/clients/{id}/contacts/{contactId}` with `If-Match`; 412 when someone saved first. */
export function updateContact({ clientId, contactId, version, input }: UpdateContactVariables): Promise<Contact> {
  return requestData("PUT", apiPath(clientRoutes.updateContact, { id: clientId, contactId }), contactSchema, {
    body: input,
    headers: ifMatch(version),
    expectedStatuses: [400, 412],
  });
}

export function useUpdateContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateContact,
    onSuccess: (_contact, { clientId }) => queryClient.invalidateQueries({ queryKey: clientKeys.contacts(clientId) }),
  });
}
