import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type Contact, type ContactInput, clientRoutes, contactSchema } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { clientKeys } from "./query-keys";

export type CreateContactVariables = { clientId: string; input: ContactInput };

/** `POST /continuous-monitoring/clients/{id}/contacts`. */
export function createContact({ clientId, input }: CreateContactVariables): Promise<Contact> {
  return requestData("POST", apiPath(clientRoutes.createContact, { id: clientId }), contactSchema, {
    body: input,
    expectedStatuses: [400],
  });
}

export function useCreateContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createContact,
    onSuccess: (_contact, { clientId }) => queryClient.invalidateQueries({ queryKey: clientKeys.contacts(clientId) }),
  });
}
