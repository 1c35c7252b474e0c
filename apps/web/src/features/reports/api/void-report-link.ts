import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type ReportList, type ReportVersion, reportRoutes, reportVersionSchema } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { reportKeys } from "./query-keys";

export type VoidReportLinkVariables = { caseId: string; reportId: string; deliveryId: string };

/** `POST …/reports/{reportId}/deliveries/{deliveryId}/void`: the unused link downloads nothing afterwards. */
export function voidReportLink({ caseId, reportId, deliveryId }: VoidReportLinkVariables): Promise<ReportVersion> {
  return requestData(
    "POST",
    apiPath(reportRoutes.voidReportLink, { id: caseId, reportId, deliveryId }),
    reportVersionSchema,
  );
}

/** The answer is the version with the link withdrawn: it replaces the version in the list, then the list is re-read. */
export function useVoidReportLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: voidReportLink,
    onSuccess: (version, { caseId }) => {
      queryClient.setQueryData<ReportList>(reportKeys.caseReports(caseId), (list) =>
        list ? { ...list, items: list.items.map((item) => (item.id === version.id ? version : item)) } : list,
      );
      return queryClient.invalidateQueries({ queryKey: reportKeys.caseReports(caseId) });
    },
  });
}
