import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { type ServiceLevelReport, serviceLevelReportSchema, serviceLevelRoutes } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { reportingKeys, type ServiceLevelParams } from "./query-keys";

/** `GET /reporting/service-levels/{clientId}/{month}`: a client's month of service clocks and its 12-month series. */
export function fetchServiceLevelReport(params: ServiceLevelParams, signal?: AbortSignal): Promise<ServiceLevelReport> {
  return requestData("GET", apiPath(serviceLevelRoutes.getServiceLevelReport, params), serviceLevelReportSchema, {
    signal,
    expectedStatuses: [400, 404],
  });
}

export function serviceLevelReportQueryOptions(params: ServiceLevelParams) {
  return queryOptions({
    queryKey: reportingKeys.serviceLevels(params),
    queryFn: ({ signal }) => fetchServiceLevelReport(params, signal),
    // The previous month stays on screen while the next one loads, so the chart does not jump.
    placeholderData: keepPreviousData,
  });
}

export function useServiceLevelReport(params: ServiceLevelParams, options: { enabled?: boolean } = {}) {
  return useQuery({ ...serviceLevelReportQueryOptions(params), enabled: options.enabled ?? true });
}
