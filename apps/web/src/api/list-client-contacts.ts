import { queryOptions, useQuery } from "@tanstack/react-query";
import { type Contact, clientRoutes } from "@vigil/contract";
import { requestData } from "../lib/api-client";
import { apiPath } from "../lib/api-paths";
import { sharedKeys } from "./query-keys";

/** `GET /continuous-monitoring/clients/{id}/contacts`: the client's contacts, primary first (also whom an event's notification can name). */
export function fetchClientContacts(clientId: string, signal?: AbortSignal): Promise<Contact[]> {
  const route = clientRoutes.listContacts;
  return requestData("GET", apiPath(route, { id: clientId }), route.response, { signal });
}

export function clientContactsQueryOptions(clientId: string) {
  return queryOptions({
    queryKey: sharedKeys.clientContacts(clientId),
    queryFn: ({ signal }) => fetchClientContacts(clientId, signal),
  });
}

export function useClientContacts(clientId: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...clientContactsQueryOptions(clientId), enabled: options.enabled ?? true });
}
