import { useQueryClient } from "@tanstack/react-query";
import { type BugReport, bugReportSchema, bugRoutes, type ChangeBugStatusRequest } from "@vigil/contract";
import { useCallback } from "react";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { ifMatch } from "../../../lib/if-match";
import { bugReportKeys } from "./bug-report-keys";

export type ChangeBugStatusVariables = { id: string; version: number; input: ChangeBugStatusRequest };

/**
 * `PATCH /bugs/reports/{id}` with `If-Match` = the version the user was looking at. 412: someone changed the
 * report first (`details.current` is the report now); 409: it already has that status. The form handles both.
 */
export function changeBugStatus({ id, version, input }: ChangeBugStatusVariables): Promise<BugReport> {
  return requestData("PATCH", apiPath(bugRoutes.changeBugStatus, { id }), bugReportSchema, {
    body: input,
    headers: ifMatch(version),
    expectedStatuses: [400, 409, 412],
  });
}

/** Puts a report the server answered with (saved, or theirs after a 412) in the cache and refreshes the lists. */
export function useStoreBugReport() {
  const queryClient = useQueryClient();
  return useCallback(
    (report: BugReport) => {
      queryClient.setQueryData(bugReportKeys.detail(report.id), report);
      void queryClient.invalidateQueries({ queryKey: bugReportKeys.lists() });
    },
    [queryClient],
  );
}
