import { queryOptions, useQuery } from "@tanstack/react-query";
import { clientIdsSchema, routes } from "@vigil/contract";
import type { z } from "zod";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { billingKeys } from "./query-keys";

export type ClientOption = z.infer<typeof clientIdsSchema>[number];

/** `GET /continuous-monitoring/clients/ids`: every active client (id, name, code), for the client filter. */
export function fetchClientIds(signal?: AbortSignal): Promise<ClientOption[]> {
  return requestData("GET", apiPath(routes.listClientIds), clientIdsSchema, { signal });
}

export function clientIdsQueryOptions() {
  return queryOptions({
    queryKey: billingKeys.clientIds(),
    queryFn: ({ signal }) => fetchClientIds(signal),
    staleTime: 60_000,
  });
}

export function useClientIds(options: { enabled?: boolean } = {}) {
  return useQuery({ ...clientIdsQueryOptions(), enabled: options.enabled ?? true });
}
