import { useQuery } from "@tanstack/react-query";
import { type InvoiceAllocations, paymentRoutes } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { billingKeys } from "./query-keys";

/** `GET /billing/invoices/{id}/allocations`: what was applied to the invoice, in date order, with the amount due. */
export function fetchInvoiceAllocations(invoiceId: string, signal?: AbortSignal): Promise<InvoiceAllocations> {
  const route = paymentRoutes.listInvoiceAllocations;
  return requestData("GET", apiPath(route, { id: invoiceId }), route.response, { signal });
}

/** Under the invoice's key, so every payment write (which invalidates all of billing) reads it again. */
export function useInvoiceAllocations(invoiceId: string) {
  return useQuery({
    queryKey: [...billingKeys.invoice(invoiceId), "allocations"] as const,
    queryFn: ({ signal }) => fetchInvoiceAllocations(invoiceId, signal),
  });
}
