import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { RecordKind } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { type RecordListParams, recordKeys } from "./query-keys";
import { type RecordListOf, recordRoutesOf } from "./record-kinds";

/**
 * `GET cases/{stage}/{id}/{kind}`: one page of a kind's items with their current state, newest first, whether the
 * caller may write now (and why not), and the kind's summary (unacknowledged notifications, overdue checks…).
 */
export function fetchRecordList<K extends RecordKind>(
  kind: K,
  caseId: string,
  params: RecordListParams,
  signal?: AbortSignal,
): Promise<RecordListOf<K>> {
  const route = recordRoutesOf[kind].list;
  return requestData("GET", apiPath(route, { id: caseId }), route.response, {
    query: { includeDeleted: params.includeDeleted ? "true" : "false", limit: params.limit, offset: params.offset },
    signal,
  }) as Promise<RecordListOf<K>>;
}

export function recordListQueryOptions<K extends RecordKind>(kind: K, caseId: string, params: RecordListParams) {
  return queryOptions({
    queryKey: recordKeys.list(caseId, kind, params),
    queryFn: ({ signal }) => fetchRecordList(kind, caseId, params, signal),
    placeholderData: keepPreviousData,
    // Several people keep these records at once (a night technologist, the reviewer): read on every visit.
    staleTime: 0,
  });
}

export function useRecordList<K extends RecordKind>(kind: K, caseId: string, params: RecordListParams) {
  return useQuery(recordListQueryOptions(kind, caseId, params));
}
