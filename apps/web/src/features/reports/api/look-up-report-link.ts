import { queryOptions, useQuery } from "@tanstack/react-query";
import { type ReportLinkView, reportLinkViewSchema, reportRoutes } from "@vigil/contract";
import { oneTimeLinkStatuses } from "../../../components/feedback/one-time-link";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { reportKeys } from "./query-keys";

/**
 * `POST /report-links/lookup`, no account: what the link's holder is about to receive (it does not spend the link).
 * The token travels in the body, never in a URL a server would log.
 */
export function lookUpReportLink(token: string, signal?: AbortSignal): Promise<ReportLinkView> {
  return requestData("POST", apiPath(reportRoutes.lookUpReportLink), reportLinkViewSchema, {
    body: { token },
    anonymous: true,
    signal,
    expectedStatuses: oneTimeLinkStatuses,
  });
}

/** The answer is dropped once the page is left, and the token is written into nothing kept beyond it. */
export function reportLinkQueryOptions(token: string) {
  return queryOptions({
    queryKey: reportKeys.link(),
    queryFn: ({ signal }) => lookUpReportLink(token, signal),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
}

export function useReportLink(token: string) {
  return useQuery(reportLinkQueryOptions(token));
}
