import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { type Invoice, type InvoicePage, invoicePageSchema, invoiceRoutes, invoiceSchema } from "@vigil/contract";
import { requestData, requestFile } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { billingKeys, type InvoicesParams } from "./query-keys";

/** `GET /billing/invoices`: one page of invoices, newest first, with the totals of every matching one. */
export function fetchInvoices(params: InvoicesParams, signal?: AbortSignal): Promise<InvoicePage> {
  return requestData("GET", apiPath(invoiceRoutes.listInvoices), invoicePageSchema, { query: params, signal });
}

export function useInvoices(params: InvoicesParams, options: { enabled?: boolean } = {}) {
  return useQuery({
    ...queryOptions({
      queryKey: billingKeys.invoiceList(params),
      queryFn: ({ signal }) => fetchInvoices(params, signal),
      // The previous page stays on screen while the next one loads, so the table does not jump.
      placeholderData: keepPreviousData,
    }),
    enabled: options.enabled ?? true,
  });
}

/** `GET /billing/invoices/{id}`: one invoice as issued (it may name patients: audited). */
export function fetchInvoice(id: string, signal?: AbortSignal): Promise<Invoice> {
  return requestData("GET", apiPath(invoiceRoutes.getInvoice, { id }), invoiceSchema, {
    signal,
    // A wrong id in the URL is shown as "not found" on the page itself.
    expectedStatuses: [404],
  });
}

export function useInvoice(id: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: billingKeys.invoice(id),
    queryFn: ({ signal }) => fetchInvoice(id, signal),
    enabled: options.enabled ?? true,
  });
}

/** `GET /billing/invoices/{id}/pdf`: the PDF exactly as issued, fetched only when someone asks. */
export function fetchInvoicePdf(id: string): Promise<Blob> {
  return requestFile("GET", apiPath(invoiceRoutes.getInvoicePdf, { id }), "pdf");
}

/** `GET /billing/invoices/export`: the server's CSV of every invoice the filters match. */
export function exportInvoices(filters: Omit<InvoicesParams, "limit" | "offset">): Promise<Blob> {
  return requestFile("GET", apiPath(invoiceRoutes.exportInvoices), "csv", { query: filters });
}
