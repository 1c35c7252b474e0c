import { useMutation } from "@tanstack/react-query";
import { reportRoutes } from "@vigil/contract";
import { oneTimeLinkStatuses } from "../../../components/feedback/one-time-link";
import { requestFile } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";

/**
 * `POST /report-links/download`, no account: the report's PDF, which spends the link (a second use is a 410 whose
 * `details.reason` the page words). Like every write it is not retried by itself: one that reached the server may
 * have spent the link.
 */
export function downloadReportLink(token: string): Promise<Blob> {
  return requestFile("POST", apiPath(reportRoutes.downloadReportLink), "pdf", {
    body: { token },
    anonymous: true,
    expectedStatuses: oneTimeLinkStatuses,
  });
}

export function useDownloadReportLink() {
  return useMutation({ mutationFn: downloadReportLink });
}
