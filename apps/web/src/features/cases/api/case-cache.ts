import type { QueryClient } from "@tanstack/react-query";
import type { Case } from "@vigil/contract";
import { sharedKeys } from "../../../api/query-keys";
import { caseKeys } from "./query-keys";

/**
 * After a write that answered with the case as it is now (an edit, an action, a move or a step on a pending move):
 * the case screen shows it at once, and its timeline and every list are read again. A move may change the stage,
 * which the breadcrumbs name the case under, so `stageMayChange` re-reads them too.
 */
export function applyCaseChange(queryClient: QueryClient, updated: Case, { stageMayChange = false } = {}) {
  queryClient.setQueryData(caseKeys.case(updated.id), updated);
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: caseKeys.timeline(updated.id) }),
    queryClient.invalidateQueries({ queryKey: caseKeys.lists() }),
    ...(stageMayChange ? [queryClient.invalidateQueries({ queryKey: sharedKeys.breadcrumbs() })] : []),
  ]);
}
