import { useMutation } from "@tanstack/react-query";
import { invoiceSendingRoutes } from "@vigil/contract";
import { oneTimeLinkStatuses } from "../../../components/feedback/one-time-link";
import { requestFile } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";

/**
 * `POST /invoice-links/download`, no account: the invoice's PDF as issued, which spends the link (a second use is a
 * 410 whose `details.reason` the page words). Not retried by itself: one that reached the server may have spent it.
 */
export function downloadInvoiceLink(token: string): Promise<Blob> {
  return requestFile("POST", apiPath(invoiceSendingRoutes.downloadInvoiceLink), "pdf", {
    body: { token },
    anonymous: true,
    expectedStatuses: oneTimeLinkStatuses,
  });
}

export function useDownloadInvoiceLink() {
  return useMutation({ mutationFn: downloadInvoiceLink });
}
