import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RecordKind } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { invalidateRecords } from "./invalidate-records";
import { type RecordDataOf, type RecordItemOf, recordRoutesOf } from "./record-kinds";

/**
 * `POST cases/{stage}/{id}/{kind}`: a new item (revision 1). 400 names the fields (`body.…`); 403/409 say why the
 * caller may not write this kind now (the screen shows it, so these stay off the shared error list).
 */
export function createRecord<K extends RecordKind>(
  kind: K,
  caseId: string,
  data: RecordDataOf<K>,
): Promise<RecordItemOf<K>> {
  const route = recordRoutesOf[kind].create;
  return requestData("POST", apiPath(route, { id: caseId }), route.response, {
    body: data,
    expectedStatuses: [400, 403, 409, 422],
  }) as Promise<RecordItemOf<K>>;
}

export function useCreateRecord<K extends RecordKind>(kind: K, caseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (data: RecordDataOf<K>) => createRecord(kind, caseId, data),
    onSuccess: () => invalidateRecords(queryClient, kind, caseId),
  });
}
