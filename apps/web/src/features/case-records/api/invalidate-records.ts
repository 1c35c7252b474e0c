import type { QueryClient } from "@tanstack/react-query";
import type { RecordKind } from "@vigil/contract";
import { sharedKeys } from "../../../api/query-keys";
import { recordKeys } from "./query-keys";
import { kindsAffectingCase } from "./record-kinds";

/**
 * After a write (or a refused stale one): the kind's lists and histories, and the case when the kind moves it —
 * else at least its service clocks, which an impedance check or a review-check event restarts.
 */
export function invalidateRecords(queryClient: QueryClient, kind: RecordKind, caseId: string): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: recordKeys.kind(caseId, kind) }),
    kindsAffectingCase.has(kind)
      ? queryClient.invalidateQueries({ queryKey: sharedKeys.caseDetail(caseId) })
      : queryClient.invalidateQueries({ queryKey: sharedKeys.caseClocks(caseId) }),
  ]);
}
