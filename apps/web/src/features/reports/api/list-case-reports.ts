import { queryOptions, useQuery } from "@tanstack/react-query";
import { type ReportList, reportListSchema, reportRoutes } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { reportKeys } from "./query-keys";

/** How often the list is read again while an e-mail is still waiting for the mail transport. */
const pendingDeliveryPollMs = 5_000;

/** `GET …/cases/{id}/reports`: every version of the case's reports, newest first, with their deliveries. */
export function fetchCaseReports(caseId: string, signal?: AbortSignal): Promise<ReportList> {
  return requestData("GET", apiPath(reportRoutes.listCaseReports, { id: caseId }), reportListSchema, { signal });
}

export function caseReportsQueryOptions(caseId: string) {
  return queryOptions({
    queryKey: reportKeys.caseReports(caseId),
    queryFn: ({ signal }) => fetchCaseReports(caseId, signal),
    // The links go out after the signing's answer, so a delivery shows "pending" for a moment: it is followed until
    // it is sent or has failed.
    refetchInterval: (query) =>
      query.state.data?.items.some((version) => version.deliveries.some((delivery) => delivery.status === "pending"))
        ? pendingDeliveryPollMs
        : false,
  });
}

export function useCaseReports(caseId: string) {
  return useQuery(caseReportsQueryOptions(caseId));
}
