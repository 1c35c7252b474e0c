import { queryOptions, useQuery } from "@tanstack/react-query";
import { type Client, clientRoutes, clientSchema } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { clientKeys } from "./query-keys";

/** `GET /continuous-monitoring/clients/{id}`: one client; its `version` is what edits send as If-Match. */
export function fetchClient(clientId: string, signal?: AbortSignal): Promise<Client> {
  return requestData("GET", apiPath(clientRoutes.getClient, { id: clientId }), clientSchema, {
    signal,
    // A wrong id in the URL is shown as "not found" on the page itself.
    expectedStatuses: [404],
  });
}

export function clientQueryOptions(clientId: string) {
  return queryOptions({
    queryKey: clientKeys.client(clientId),
    queryFn: ({ signal }) => fetchClient(clientId, signal),
  });
}

export function useClient(clientId: string) {
  return useQuery(clientQueryOptions(clientId));
}
