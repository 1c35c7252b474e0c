import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type AgingReport, agingReportSchema, paymentRoutes } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { billingKeys } from "./query-keys";

export type AgingParams = { asOf?: string; clientId?: string; limit: number; offset: number };

/** `GET /billing/receivables/aging`: one page of clients with open amounts by days past due as of a date. */
export function fetchAging(params: AgingParams, signal?: AbortSignal): Promise<AgingReport> {
  return requestData("GET", apiPath(paymentRoutes.getAgingReport), agingReportSchema, { query: params, signal });
}

export function useAging(params: AgingParams, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: [...billingKeys.all, "aging", params],
    queryFn: ({ signal }) => fetchAging(params, signal),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}
