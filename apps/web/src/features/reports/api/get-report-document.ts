import { queryOptions, useQuery } from "@tanstack/react-query";
import { type ReportDocument, reportDocumentSchema, reportRoutes } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { reportKeys } from "./query-keys";

/**
 * `GET …/reports/{reportId}/document`: the version's content as its PDF says it, for the printable page. Each fetch
 * is a disclosure the server records, so it is read once per visit: never refreshed while the page is open, and
 * dropped when it is left.
 */
export function fetchReportDocument(caseId: string, reportId: string, signal?: AbortSignal): Promise<ReportDocument> {
  return requestData("GET", apiPath(reportRoutes.getReportDocument, { id: caseId, reportId }), reportDocumentSchema, {
    signal,
  });
}

export function reportDocumentQueryOptions(caseId: string, reportId: string) {
  return queryOptions({
    queryKey: reportKeys.document(caseId, reportId),
    queryFn: ({ signal }) => fetchReportDocument(caseId, reportId, signal),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
}

export function useReportDocument(caseId: string, reportId: string, options: { enabled: boolean }) {
  return useQuery({ ...reportDocumentQueryOptions(caseId, reportId), enabled: options.enabled });
}
