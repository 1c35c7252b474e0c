import { queryOptions, useQuery } from "@tanstack/react-query";
import { clientIdsSchema, clientRoutes } from "@vigil/contract";
import type { z } from "zod";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { auditQueryKey } from "./list-audit-events";

export type ClientOption = z.infer<typeof clientIdsSchema>[number];

/** `GET /continuous-monitoring/clients/ids`: id, name and code of every active client, for the client filter. */
export function fetchClientOptions(signal?: AbortSignal): Promise<ClientOption[]> {
  return requestData("GET", apiPath(clientRoutes.listClientIds), clientIdsSchema, { signal });
}

export function clientOptionsQueryOptions() {
  return queryOptions({
    queryKey: [...auditQueryKey, "client-options"] as const,
    queryFn: ({ signal }) => fetchClientOptions(signal),
    staleTime: 60_000,
  });
}

export function useClientOptions(options: { enabled?: boolean } = {}) {
  return useQuery({ ...clientOptionsQueryOptions(), enabled: options.enabled ?? true });
}
