import { queryOptions, useQuery } from "@tanstack/react-query";
import { clientIdsSchema, clientRoutes } from "@vigil/contract";
import type { z } from "zod";
import { requestData } from "../lib/api-client";
import { apiPath } from "../lib/api-paths";
import { sharedKeys } from "./query-keys";

export type ClientOption = z.infer<typeof clientIdsSchema>[number];

/** `GET /continuous-monitoring/clients/ids`: every active client (id, name, code), for pickers and filters. */
export function fetchClientIds(signal?: AbortSignal): Promise<ClientOption[]> {
  return requestData("GET", apiPath(clientRoutes.listClientIds), clientIdsSchema, { signal });
}

export function clientIdsQueryOptions() {
  return queryOptions({
    queryKey: sharedKeys.clientIds(),
    queryFn: ({ signal }) => fetchClientIds(signal),
    staleTime: 60_000,
  });
}

export function useClientIds(options: { enabled?: boolean } = {}) {
  return useQuery({ ...clientIdsQueryOptions(), enabled: options.enabled ?? true });
}
