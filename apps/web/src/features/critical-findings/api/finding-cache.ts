import type { QueryClient } from "@tanstack/react-query";
import type { CriticalFinding, CriticalFindingList } from "@vigil/contract";
import { sharedKeys } from "../../../api/query-keys";
import { findingKeys } from "./query-keys";

/**
 * After a write that answered with the finding as it is now: the panel shows it at once (newest first), and what
 * the finding moves elsewhere is read again — the case's clocks and timeline (under its detail key), its event
 * records (the finding is one) and the watch board.
 */
export function applyFindingChange(queryClient: QueryClient, finding: CriticalFinding): Promise<unknown> {
  const listKey = JSON.stringify(findingKeys.list(finding.caseId));
  queryClient.setQueryData<CriticalFindingList>(findingKeys.list(finding.caseId), (current) => {
    if (!current) return { items: [finding] };
    const others = current.items.filter((item) => item.id !== finding.id);
    const known = others.length < current.items.length;
    return {
      items: known
        ? current.items.map((item) => (item.id === finding.id ? finding : item))
        : [finding, ...current.items],
    };
  });
  return Promise.all([
    queryClient.invalidateQueries({
      queryKey: sharedKeys.caseDetail(finding.caseId),
      // The list was just set from the answer; reading it again would only repeat it.
      predicate: (query) => JSON.stringify(query.queryKey) !== listKey,
    }),
    queryClient.invalidateQueries({ queryKey: sharedKeys.caseRecords(finding.caseId) }),
    queryClient.invalidateQueries({ queryKey: sharedKeys.watch() }),
  ]);
}
