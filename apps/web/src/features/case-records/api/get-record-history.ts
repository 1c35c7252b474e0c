import { queryOptions, useQuery } from "@tanstack/react-query";
import type { RecordKind } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { recordKeys } from "./query-keys";
import { type RecordHistoryOf, recordRoutesOf } from "./record-kinds";

/** `GET cases/{stage}/{id}/{kind}/{itemId}/revisions`: every revision of one item, oldest first. */
export function fetchRecordHistory<K extends RecordKind>(
  kind: K,
  caseId: string,
  itemId: string,
  signal?: AbortSignal,
): Promise<RecordHistoryOf<K>> {
  const route = recordRoutesOf[kind].history;
  return requestData("GET", apiPath(route, { id: caseId, itemId }), route.response, { signal }) as Promise<
    RecordHistoryOf<K>
  >;
}

export function recordHistoryQueryOptions<K extends RecordKind>(kind: K, caseId: string, itemId: string) {
  return queryOptions({
    queryKey: recordKeys.history(caseId, kind, itemId),
    queryFn: ({ signal }) => fetchRecordHistory(kind, caseId, itemId, signal),
    staleTime: 0,
  });
}

export function useRecordHistory<K extends RecordKind>(kind: K, caseId: string, itemId: string) {
  return useQuery(recordHistoryQueryOptions(kind, caseId, itemId));
}
