import type { CaseQueueQuery, CaseStage } from "@vigil/contract";
import { sharedKeys } from "../../../api/query-keys";

export type CaseQueueParams = Omit<CaseQueueQuery, "limit" | "offset"> & { limit: number; offset: number };
export type AssignmentsParams = { technologistId?: string; clientId?: string; limit: number; offset: number };

/**
 * Query keys of the cases feature. Everything about one case sits under `detail(id)`, so a workflow answer can
 * refresh the case, its timeline and the lists with two prefixes; every list (queues, assignments, home counts)
 * sits under `lists()`.
 */
export const caseKeys = {
  all: ["cases"] as const,
  lists: sharedKeys.caseLists,
  queue: (stage: CaseStage, params: CaseQueueParams) => [...caseKeys.lists(), "queue", stage, params] as const,
  assignments: (params: AssignmentsParams) => [...caseKeys.lists(), "assignments", params] as const,
  detail: sharedKeys.caseDetail,
  case: (caseId: string) => [...caseKeys.detail(caseId), "case"] as const,
  timeline: (caseId: string) => [...caseKeys.detail(caseId), "timeline"] as const,
  clocks: sharedKeys.caseClocks,
  clientProtocol: (caseId: string) => [...caseKeys.detail(caseId), "client-protocol"] as const,
};
