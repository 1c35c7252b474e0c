import { queryOptions, useQuery } from "@tanstack/react-query";
import { type Contact, clientRoutes, contactSchema } from "@vigil/contract";
import { z } from "zod";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { clientKeys } from "./query-keys";

const contactsSchema = z.array(contactSchema);

/** `GET /continuous-monitoring/clients/{id}/contacts`: the client's contacts, primary first. */
export function fetchContacts(clientId: string, signal?: AbortSignal): Promise<Contact[]> {
  return requestData("GET", apiPath(clientRoutes.listContacts, { id: clientId }), contactsSchema, { signal });
}

export function contactsQueryOptions(clientId: string) {
  return queryOptions({
    queryKey: clientKeys.contacts(clientId),
    queryFn: ({ signal }) => fetchContacts(clientId, signal),
  });
}

export function useContacts(clientId: string) {
  return useQuery(contactsQueryOptions(clientId));
}
