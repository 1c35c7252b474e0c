import { queryOptions, useQuery } from "@tanstack/react-query";
import { type IntegrationCheckList, routes } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { operatorKeys } from "./operator-query-keys";

/** `GET /bugs/integration-checks`: the self-checks this deployment offers (what they are, not their results). */
export function fetchIntegrationChecks(signal?: AbortSignal): Promise<IntegrationCheckList> {
  return requestData("GET", apiPath(routes.listIntegrationChecks), routes.listIntegrationChecks.response, { signal });
}

export function useIntegrationChecks() {
  return useQuery(
    queryOptions({
      queryKey: operatorKeys.integrationChecks(),
      queryFn: ({ signal }) => fetchIntegrationChecks(signal),
      // The list only changes with a new release; reading it again would start every check again.
      staleTime: Number.POSITIVE_INFINITY,
    }),
  );
}
