import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type Invoice, invoiceSchema, routes } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { billingKeys } from "./query-keys";

export type IssueAdjustmentVariables = { clientId: string; month: string; fingerprint: string; reason: string };

/**
 * `POST /billing/continuous-monitoring/{client}/{month}/adjustment`: carries the month's differences onto a
 * supplementary invoice or credit note, naming in `If-Match` the figures the user looked at. Figures that moved
 * (412) or nothing left to carry (409) are told in the dialog, so they stay off the shared error list.
 */
export function issueStatementAdjustment({
  clientId,
  month,
  fingerprint,
  reason,
}: IssueAdjustmentVariables): Promise<Invoice> {
  return requestData("POST", apiPath(routes.issueStatementAdjustment, { client: clientId, month }), invoiceSchema, {
    headers: { "If-Match": `"${fingerprint}"` },
    body: { reason },
    expectedStatuses: [409, 412],
  });
}

export function useIssueStatementAdjustment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: issueStatementAdjustment,
    // The month's differences, its corrections and the invoices list all change.
    onSettled: () => queryClient.invalidateQueries({ queryKey: billingKeys.all }),
  });
}
