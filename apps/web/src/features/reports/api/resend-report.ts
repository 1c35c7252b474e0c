import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  type ReportList,
  type ReportVersion,
  type ResendReportInput,
  reportRoutes,
  reportVersionSchema,
} from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { reportKeys } from "./query-keys";

export type ResendReportVariables = { caseId: string; reportId: string; input: ResendReportInput };

/** `POST …/reports/{reportId}/deliveries`: a new e-mail with a new one-time link to each contact named. */
export function resendReport({ caseId, reportId, input }: ResendReportVariables): Promise<ReportVersion> {
  return requestData("POST", apiPath(reportRoutes.resendReport, { id: caseId, reportId }), reportVersionSchema, {
    body: input,
  });
}

/** The answer is the version with its new deliveries: it replaces the version in the list, then the list is re-read. */
export function useResendReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendReport,
    onSuccess: (version, { caseId }) => {
      queryClient.setQueryData<ReportList>(reportKeys.caseReports(caseId), (list) =>
        list ? { ...list, items: list.items.map((item) => (item.id === version.id ? version : item)) } : list,
      );
      return queryClient.invalidateQueries({ queryKey: reportKeys.caseReports(caseId) });
    },
  });
}
