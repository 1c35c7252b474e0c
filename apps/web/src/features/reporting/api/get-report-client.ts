import { queryOptions, useQuery } from "@tanstack/react-query";
import { type Client, clientRoutes, clientSchema } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { reportingKeys } from "./query-keys";

/** `GET /continuous-monitoring/clients/{id}`: the client a report is about (its name and time zone). */
export function fetchReportClient(clientId: string, signal?: AbortSignal): Promise<Client> {
  return requestData("GET", apiPath(clientRoutes.getClient, { id: clientId }), clientSchema, {
    signal,
    // A wrong id in the URL is shown as "not found" on the page itself.
    expectedStatuses: [404],
  });
}

export function reportClientQueryOptions(clientId: string) {
  return queryOptions({
    queryKey: reportingKeys.client(clientId),
    queryFn: ({ signal }) => fetchReportClient(clientId, signal),
  });
}

export function useReportClient(clientId: string) {
  return useQuery(reportClientQueryOptions(clientId));
}
