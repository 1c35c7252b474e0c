import { queryOptions, useQuery } from "@tanstack/react-query";
import { clientRoutes, type UsefulLink, usefulLinkSchema } from "@vigil/contract";
import { z } from "zod";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { clientKeys } from "./query-keys";

const usefulLinksSchema = z.array(usefulLinkSchema);

/** `GET /continuous-monitoring/clients/{id}/useful-links`. */
export function fetchUsefulLinks(clientId: string, signal?: AbortSignal): Promise<UsefulLink[]> {
  return requestData("GET", apiPath(clientRoutes.listUsefulLinks, { id: clientId }), usefulLinksSchema, { signal });
}

export function usefulLinksQueryOptions(clientId: string) {
  return queryOptions({
    queryKey: clientKeys.usefulLinks(clientId),
    queryFn: ({ signal }) => fetchUsefulLinks(clientId, signal),
  });
}

export function useUsefulLinks(clientId: string) {
  return useQuery(usefulLinksQueryOptions(clientId));
}
