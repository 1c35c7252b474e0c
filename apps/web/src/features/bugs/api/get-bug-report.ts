import { useQuery } from "@tanstack/react-query";
import { type BugReport, bugReportSchema, bugRoutes } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { bugReportKeys } from "./bug-report-keys";

/** `GET /bugs/reports/{id}`: everything filed, the context and the history; `version` is its ETag. */
export function fetchBugReport(id: string, signal?: AbortSignal): Promise<BugReport> {
  return requestData("GET", apiPath(bugRoutes.getBugReport, { id }), bugReportSchema, {
    signal,
    // A report that is gone (a stale link) is said in the panel, not in the global error list.
    expectedStatuses: [404],
  });
}

export function useBugReport(id: string | null) {
  return useQuery({
    queryKey: bugReportKeys.detail(id ?? ""),
    queryFn: ({ signal }) => fetchBugReport(id ?? "", signal),
    enabled: Boolean(id),
  });
}
