import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { clientRoutes } from "@vigil/contract";
import type { z } from "zod";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { type ClientListParams, clientKeys } from "./query-keys";

const clientPageSchema = clientRoutes.listClients.response;
export type ClientPage = z.infer<typeof clientPageSchema>;

/** `GET /continuous-monitoring/clients`: one page, filtered, searched and sorted by the server. */
export function fetchClients(params: ClientListParams, signal?: AbortSignal): Promise<ClientPage> {
  const { search, ...rest } = params;
  return requestData("GET", apiPath(clientRoutes.listClients), clientPageSchema, {
    query: { ...rest, search: search.trim() || undefined },
    signal,
  });
}

export function clientsQueryOptions(params: ClientListParams) {
  return queryOptions({
    queryKey: clientKeys.list(params),
    queryFn: ({ signal }) => fetchClients(params, signal),
    // The previous page stays on screen while the next one loads, so the table does not jump.
    placeholderData: keepPreviousData,
  });
}

export function useClients(params: ClientListParams) {
  return useQuery(clientsQueryOptions(params));
}
