import { queryOptions, useQuery } from "@tanstack/react-query";
import { type JobQueue, routes } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { operatorKeys } from "./operator-query-keys";

/** `GET /integration/jobs`: per kind waiting / running / failed in 24 h / oldest wait, and the jobs failed for good. */
export function fetchJobQueue(signal?: AbortSignal): Promise<JobQueue> {
  return requestData("GET", apiPath(routes.getJobQueue), routes.getJobQueue.response, { signal });
}

export function jobQueueQueryOptions() {
  return queryOptions({ queryKey: operatorKeys.jobQueue(), queryFn: ({ signal }) => fetchJobQueue(signal) });
}

export function useJobQueue() {
  return useQuery(jobQueueQueryOptions());
}
