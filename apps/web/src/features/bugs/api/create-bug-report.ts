import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type BugReport, bugReportSchema, bugRoutes, type CreateBugReportRequest } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { bugReportKeys } from "./bug-report-keys";

/** `POST /bugs/reports` (anyone signed in): 201 with the report and its number ("BUG-7"). */
export function createBugReport(request: CreateBugReportRequest): Promise<BugReport> {
  return requestData("POST", apiPath(bugRoutes.createBugReport), bugReportSchema, {
    body: request,
    // A 400 is shown under the dialog's fields, not in the page's error list.
    expectedStatuses: [400],
  });
}

export function useCreateBugReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createBugReport,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: bugReportKeys.lists() }),
  });
}
