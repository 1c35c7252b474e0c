import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { type BillableHoursReport, billableHoursReportSchema, billingRoutes } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { type BillableHoursParams, reportingKeys } from "./query-keys";

/**
 * `GET /reporting/continuous-monitoring/billable-hours`: hours for a period, grouped. A 400 names the query field
 * (`querystring.to`: the period is too long for the grouping); the screen shows it beside that field.
 */
export function fetchBillableHoursReport(
  params: BillableHoursParams,
  signal?: AbortSignal,
): Promise<BillableHoursReport> {
  return requestData("GET", apiPath(billingRoutes.getBillableHoursReport), billableHoursReportSchema, {
    query: params,
    signal,
    expectedStatuses: [400],
  });
}

export function billableHoursQueryOptions(params: BillableHoursParams) {
  return queryOptions({
    queryKey: reportingKeys.billableHours(params),
    queryFn: ({ signal }) => fetchBillableHoursReport(params, signal),
    // The previous report stays on screen while the next filter's loads, so the chart and table do not jump.
    placeholderData: keepPreviousData,
  });
}

export function useBillableHoursReport(params: BillableHoursParams, options: { enabled?: boolean } = {}) {
  return useQuery({ ...billableHoursQueryOptions(params), enabled: options.enabled ?? true });
}
