import { queryOptions, useQuery } from "@tanstack/react-query";
import { type BillingCheck, billingCheckSchema, billingRoutes } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { recordKeys } from "./query-keys";

/**
 * The billing check sits under the billing notes' key: saving, deleting or restoring a note (which may acknowledge
 * a CPT warning) refreshes it with the notes (`invalidateRecords`).
 */
export const billingCheckKey = (caseId: string) =>
  [...recordKeys.kind(caseId, "billing-note"), "billing-check"] as const;

/**
 * `GET /continuous-monitoring/cases/{id}/billing-check`: what closing the case waits for (running logs, rates,
 * acknowledged CPT warnings), the months it touches and the CPT suggestion. A 403 (no billing-notes permission)
 * only leaves the check out, so it stays off the shared error list.
 */
export function fetchBillingCheck(caseId: string, signal?: AbortSignal): Promise<BillingCheck> {
  return requestData("GET", apiPath(billingRoutes.getBillingCheck, { id: caseId }), billingCheckSchema, {
    signal,
    expectedStatuses: [403],
  });
}

export function billingCheckQueryOptions(caseId: string) {
  return queryOptions({
    queryKey: billingCheckKey(caseId),
    queryFn: ({ signal }) => fetchBillingCheck(caseId, signal),
    // Time logs and rates change elsewhere (another tab, another person): read it on every visit.
    staleTime: 0,
  });
}

export function useBillingCheck(caseId: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...billingCheckQueryOptions(caseId), enabled: options.enabled ?? true });
}
