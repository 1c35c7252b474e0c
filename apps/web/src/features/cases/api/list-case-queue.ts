import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { type CasePage, type CaseStage, casePageSchema, caseRoutes } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { type CaseQueueParams, caseKeys } from "./query-keys";

const queueRoutes = {
  intake: caseRoutes.listIntakeCases,
  monitoring: caseRoutes.listMonitoringCases,
  preview: caseRoutes.listPreviewCases,
  reviewed: caseRoutes.listReviewedCases,
  closed: caseRoutes.listClosedCases,
} as const satisfies Record<CaseStage, unknown>;

/** `GET /continuous-monitoring/cases/{stage}`: one page of a stage queue, filtered and sorted by the server. */
export function fetchCaseQueue(stage: CaseStage, params: CaseQueueParams, signal?: AbortSignal): Promise<CasePage> {
  const { search, ...rest } = params;
  return requestData("GET", apiPath(queueRoutes[stage]), casePageSchema, {
    query: { ...rest, search: search?.trim() || undefined },
    signal,
  });
}

export function caseQueueQueryOptions(stage: CaseStage, params: CaseQueueParams) {
  return queryOptions({
    queryKey: caseKeys.queue(stage, params),
    queryFn: ({ signal }) => fetchCaseQueue(stage, params, signal),
    placeholderData: keepPreviousData,
  });
}

export function useCaseQueue(stage: CaseStage, params: CaseQueueParams, options: { enabled?: boolean } = {}) {
  return useQuery({ ...caseQueueQueryOptions(stage, params), enabled: options.enabled ?? true });
}
