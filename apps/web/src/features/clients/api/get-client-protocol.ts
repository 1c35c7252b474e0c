import { queryOptions, useQuery } from "@tanstack/react-query";
import { clientRoutes, protocolSchema } from "@vigil/contract";
import type { z } from "zod";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { clientKeys } from "./query-keys";

export type ClientProtocol = z.infer<typeof protocolSchema>;

/** `GET /continuous-monitoring/clients/{id}/protocol`: the current revision and the history, newest first. */
export function fetchClientProtocol(clientId: string, signal?: AbortSignal): Promise<ClientProtocol> {
  return requestData("GET", apiPath(clientRoutes.getClientProtocol, { id: clientId }), protocolSchema, { signal });
}

export function clientProtocolQueryOptions(clientId: string) {
  return queryOptions({
    queryKey: clientKeys.protocol(clientId),
    queryFn: ({ signal }) => fetchClientProtocol(clientId, signal),
  });
}

export function useClientProtocol(clientId: string) {
  return useQuery(clientProtocolQueryOptions(clientId));
}
