import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { type BillingOverview, billingOverviewSchema, routes } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { type BillingMonthsParams, billingKeys } from "./query-keys";

/** `GET /billing/continuous-monitoring`: one page of clients × months, with totals over every matching row. */
export function fetchBillingMonths(params: BillingMonthsParams, signal?: AbortSignal): Promise<BillingOverview> {
  const { missingRate, ...rest } = params;
  return requestData("GET", apiPath(routes.listBillingMonths), billingOverviewSchema, {
    query: { ...rest, missingRate: missingRate ? "true" : undefined },
    signal,
  });
}

export function billingMonthsQueryOptions(params: BillingMonthsParams) {
  return queryOptions({
    queryKey: billingKeys.monthList(params),
    queryFn: ({ signal }) => fetchBillingMonths(params, signal),
    // The previous page stays on screen while the next one loads, so the table does not jump.
    placeholderData: keepPreviousData,
  });
}

export function useBillingMonths(params: BillingMonthsParams, options: { enabled?: boolean } = {}) {
  return useQuery({ ...billingMonthsQueryOptions(params), enabled: options.enabled ?? true });
}
