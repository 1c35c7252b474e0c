import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type InvoiceSending, type InvoiceSendingList, invoiceSendingRoutes } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { billingKeys } from "./query-keys";

const sendingsKey = (invoiceId: string) => [...billingKeys.invoice(invoiceId), "sendings"] as const;

/** `GET /billing/invoices/{id}/sendings`: every e-mail of the invoice, newest first. */
export function fetchInvoiceSendings(invoiceId: string, signal?: AbortSignal): Promise<InvoiceSendingList> {
  const route = invoiceSendingRoutes.listInvoiceSendings;
  return requestData("GET", apiPath(route, { id: invoiceId }), route.response, { signal });
}

/** Read again every few seconds while an e-mail is still on its way, so its outcome shows without a reload. */
export function useInvoiceSendings(invoiceId: string) {
  return useQuery({
    queryKey: sendingsKey(invoiceId),
    queryFn: ({ signal }) => fetchInvoiceSendings(invoiceId, signal),
    refetchInterval: (query) =>
      query.state.data?.items.some((sending) => sending.status === "pending") ? 5_000 : false,
  });
}

/** `POST /billing/invoices/{id}/sendings`: e-mail it (again) to the client's billing contacts. */
export function sendInvoice(invoiceId: string): Promise<InvoiceSending> {
  const route = invoiceSendingRoutes.sendInvoice;
  return requestData("POST", apiPath(route, { id: invoiceId }), route.response, { body: {}, expectedStatuses: [409] });
}

export function useSendInvoice(invoiceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => sendInvoice(invoiceId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sendingsKey(invoiceId) }),
  });
}
