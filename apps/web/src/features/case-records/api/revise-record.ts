import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type RecordKind, recordRoutesTable, type TimeLogItem, type TimeLogRevisionRequest } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { invalidateRecords } from "./invalidate-records";
import { type RecordItemOf, type RecordRevisionOf, recordRoutesOf } from "./record-kinds";

export type ReviseRecordVariables<K extends RecordKind> = { itemId: string; request: RecordRevisionOf<K> };

/**
 * `POST cases/{stage}/{id}/{kind}/{itemId}/revisions`: append a revision (edit, delete, restore, and the kinds'
 * own: sign, addendum, clock-out) naming its base. A stale base is a 409 whose `details.current` is the item as
 * it is now; nothing was overwritten (`useRecordRevise` turns it into the both-versions screen).
 */
export function reviseRecord<K extends RecordKind>(
  kind: K,
  caseId: string,
  { itemId, request }: ReviseRecordVariables<K>,
): Promise<RecordItemOf<K>> {
  const route = recordRoutesOf[kind].revise;
  return requestData("POST", apiPath(route, { id: caseId, itemId }), route.response, {
    body: request,
    expectedStatuses: [400, 403, 404, 409, 422],
  }) as Promise<RecordItemOf<K>>;
}

export function useReviseRecord<K extends RecordKind>(kind: K, caseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: ReviseRecordVariables<K>) => reviseRecord(kind, caseId, variables),
    // A refused stale revision means the list on screen is behind too: read it again either way.
    onSettled: () => invalidateRecords(queryClient, kind, caseId),
  });
}

/**
 * `POST cases/monitoring/{id}/time-logs/latest/revisions`: amend the caller's latest time log on this case
 * (clock out needs no base); 404 when they have none.
 */
export function reviseLatestTimeLog(caseId: string, request: TimeLogRevisionRequest): Promise<TimeLogItem> {
  const route = recordRoutesTable.reviseLatestTimeLog;
  return requestData("POST", apiPath(route, { id: caseId }), route.response, {
    body: request,
    expectedStatuses: [400, 403, 404, 409, 422],
  });
}

export function useReviseLatestTimeLog(caseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: TimeLogRevisionRequest) => reviseLatestTimeLog(caseId, request),
    onSettled: () => invalidateRecords(queryClient, "time-log", caseId),
  });
}
