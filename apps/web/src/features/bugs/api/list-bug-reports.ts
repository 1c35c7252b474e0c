import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { type BugReportPage, bugReportPageSchema, bugRoutes } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { type BugReportListParams, bugReportKeys } from "./bug-report-keys";

/** `GET /bugs/reports`: one page, filtered, searched and sorted by the server; empty filters are left out. */
export function fetchBugReports(params: BugReportListParams, signal?: AbortSignal): Promise<BugReportPage> {
  const { search, reporter, ...rest } = params;
  return requestData("GET", apiPath(bugRoutes.listBugReports), bugReportPageSchema, {
    query: { ...rest, reporter: reporter.trim() || undefined, search: search.trim() || undefined },
    signal,
  });
}

export function useBugReports(params: BugReportListParams) {
  return useQuery(
    queryOptions({
      queryKey: bugReportKeys.list(params),
      queryFn: ({ signal }) => fetchBugReports(params, signal),
      // The previous page stays on screen while the next one loads, so the table does not jump.
      placeholderData: keepPreviousData,
    }),
  );
}
