import { queryOptions, useQuery } from "@tanstack/react-query";
import { type BillingStatement, billingStatementSchema, routes } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { billingKeys } from "./query-keys";

/** `GET /billing/continuous-monitoring/{client}/{month}`: the monthly statement (patient data, audited). */
export function fetchBillingStatement(
  clientId: string,
  month: string,
  signal?: AbortSignal,
): Promise<BillingStatement> {
  return requestData(
    "GET",
    apiPath(routes.getBillingStatement, { client: clientId, month }),
    billingStatementSchema,
    // A wrong client in the URL is shown as "not found" on the page itself.
    { signal, expectedStatuses: [404] },
  );
}

export function billingStatementQueryOptions(clientId: string, month: string) {
  return queryOptions({
    queryKey: billingKeys.statement(clientId, month),
    queryFn: ({ signal }) => fetchBillingStatement(clientId, month, signal),
  });
}

export function useBillingStatement(clientId: string, month: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...billingStatementQueryOptions(clientId, month), enabled: options.enabled ?? true });
}
