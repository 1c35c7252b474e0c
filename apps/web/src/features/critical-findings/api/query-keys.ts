import { sharedKeys } from "../../../api/query-keys";

/**
 * A case's findings sit under the case's detail key: a case event from the live stream (every escalation and
 * delivery outcome publishes one) re-reads them with the rest of the case.
 */
export const findingKeys = {
  list: (caseId: string) => [...sharedKeys.caseDetail(caseId), "critical-findings"] as const,
};
