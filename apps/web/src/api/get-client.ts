import { queryOptions, useQuery } from "@tanstack/react-query";
import { type Client, clientRoutes, clientSchema } from "@vigil/contract";
import { requestData } from "../lib/api-client";
import { apiPath } from "../lib/api-paths";
import { sharedKeys } from "./query-keys";

/**
 * `GET /continuous-monitoring/clients/{id}`: one client (its name and time zone for billing and reports; its
 * `version` is what the clients screens' edits send as If-Match).
 */
export function fetchClient(clientId: string, signal?: AbortSignal): Promise<Client> {
  return requestData("GET", apiPath(clientRoutes.getClient, { id: clientId }), clientSchema, {
    signal,
    // A wrong id in the URL is shown as "not found" on the page itself.
    expectedStatuses: [404],
  });
}

export function clientQueryOptions(clientId: string) {
  return queryOptions({
    queryKey: sharedKeys.client(clientId),
    queryFn: ({ signal }) => fetchClient(clientId, signal),
  });
}

export function useClient(clientId: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...clientQueryOptions(clientId), enabled: options.enabled ?? true });
}
