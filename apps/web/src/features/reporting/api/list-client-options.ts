import { queryOptions, useQuery } from "@tanstack/react-query";
import { clientIdsSchema, clientRoutes } from "@vigil/contract";
import type { z } from "zod";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { reportingKeys } from "./query-keys";

export type ClientOption = z.infer<typeof clientIdsSchema>[number];

/** `GET /continuous-monitoring/clients/ids`: every active client (id, name, code) for the client filter. */
export function fetchClientOptions(signal?: AbortSignal): Promise<ClientOption[]> {
  return requestData("GET", apiPath(clientRoutes.listClientIds), clientIdsSchema, { signal });
}

export function clientOptionsQueryOptions() {
  return queryOptions({
    queryKey: reportingKeys.clientOptions(),
    queryFn: ({ signal }) => fetchClientOptions(signal),
    staleTime: 60_000,
  });
}

export function useClientOptions() {
  return useQuery(clientOptionsQueryOptions());
}
