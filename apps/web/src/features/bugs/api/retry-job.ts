import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type RetriedJob, routes } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { operatorKeys } from "./operator-query-keys";

/** `POST /integration/jobs/{id}/retry` (audited as jobs.retry): a failed job waits again, due now. */
export function retryJob(jobId: string): Promise<RetriedJob> {
  return requestData("POST", apiPath(routes.retryJob, { id: jobId }), routes.retryJob.response, {
    // A job no longer failed (retried by someone else) is shown in the dialog, not in the page's error list.
    expectedStatuses: [404],
  });
}

export function useRetryJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryJob,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: operatorKeys.jobQueue() }),
  });
}
