import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { clientRoutes } from "@vigil/contract";
import type { z } from "zod";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { type ClientCasesParams, clientKeys } from "./query-keys";

const casePageSchema = clientRoutes.listClientCases.response;
export type ClientCasePage = z.infer<typeof casePageSchema>;

/** `GET /continuous-monitoring/clients/{id}/cases`: the client's cases, newest first, one page. */
export function fetchClientCases(
  clientId: string,
  params: ClientCasesParams,
  signal?: AbortSignal,
): Promise<ClientCasePage> {
  return requestData("GET", apiPath(clientRoutes.listClientCases, { id: clientId }), casePageSchema, {
    query: params,
    signal,
  });
}

export function clientCasesQueryOptions(clientId: string, params: ClientCasesParams) {
  return queryOptions({
    queryKey: clientKeys.casesPage(clientId, params),
    queryFn: ({ signal }) => fetchClientCases(clientId, params, signal),
    placeholderData: keepPreviousData,
  });
}

export function useClientCases(clientId: string, params: ClientCasesParams) {
  return useQuery(clientCasesQueryOptions(clientId, params));
}
