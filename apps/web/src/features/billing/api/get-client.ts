import { queryOptions, useQuery } from "@tanstack/react-query";
import { type Client, clientSchema, routes } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { billingKeys } from "./query-keys";

/**
 * `GET /continuous-monitoring/clients/{id}`: the client's name and zone for the client billing page, which may
 * have no billed month to take them from. A wrong id is shown on the page itself.
 */
export function fetchClient(clientId: string, signal?: AbortSignal): Promise<Client> {
  return requestData("GET", apiPath(routes.getClient, { id: clientId }), clientSchema, {
    signal,
    expectedStatuses: [404],
  });
}

export function clientQueryOptions(clientId: string) {
  return queryOptions({
    queryKey: billingKeys.client(clientId),
    queryFn: ({ signal }) => fetchClient(clientId, signal),
    staleTime: 60_000,
  });
}

export function useClient(clientId: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...clientQueryOptions(clientId), enabled: options.enabled ?? true });
}
