import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { ImpedanceList } from "@vigil/contract";
import { recordListQueryOptions } from "../../api/list-records";
import { recordKeys } from "../../api/query-keys";

/** The product default (DOMAIN.md §1.2), shown only until the case's own threshold is known. */
export const defaultImpedanceThresholdKohm = 10;

/**
 * The threshold the case's pinned protocol sets, for colouring the editor as values are typed: from the tab's
 * list already read when there is one, else read once (the server judges the check again when it is saved).
 */
export function useImpedanceThreshold(caseId: string): number {
  const queryClient = useQueryClient();
  const cached = queryClient
    .getQueriesData<ImpedanceList>({ queryKey: recordKeys.lists(caseId, "impedance") })
    .find(([, list]) => list !== undefined)?.[1];
  const read = useQuery({
    ...recordListQueryOptions("impedance", caseId, { includeDeleted: false, limit: 1, offset: 0 }),
    enabled: cached === undefined,
  });
  return cached?.summary.thresholdKohm ?? read.data?.summary.thresholdKohm ?? defaultImpedanceThresholdKohm;
}
