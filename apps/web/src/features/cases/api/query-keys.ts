import type { CaseQueueQuery, CaseStage } from "@vigil/contract";

export type CaseQueueParams = Omit<CaseQueueQuery, "limit" | "offset"> & { limit: number; offset: number };
export type AssignmentsParams = { technologistId?: string; clientId?: string; limit: number; offset: number };

/**
 * Query keys of the cases feature. Everything about one case sits under `detail(id)`, so a workflow answer can
 * refresh the case, its timeline and the lists with two prefixes; every list (queues, assignments, home counts)
 * sits under `lists()`.
 */
export const caseKeys = {
  all: ["cases"] as const,
  lists: () => [...caseKeys.all, "list"] as const,
  queue: (stage: CaseStage, params: CaseQueueParams) => [...caseKeys.lists(), "queue", stage, params] as const,
  assignments: (params: AssignmentsParams) => [...caseKeys.lists(), "assignments", params] as const,
  detail: (caseId: string) => [...caseKeys.all, "detail", caseId] as const,
  case: (caseId: string) => [...caseKeys.detail(caseId), "case"] as const,
  timeline: (caseId: string) => [...caseKeys.detail(caseId), "timeline"] as const,
  clientProtocol: (caseId: string) => [...caseKeys.detail(caseId), "client-protocol"] as const,
  pickers: () => [...caseKeys.all, "pickers"] as const,
  clientIds: () => [...caseKeys.pickers(), "client-ids"] as const,
  technologists: () => [...caseKeys.pickers(), "technologists"] as const,
  reviewers: () => [...caseKeys.pickers(), "reviewers"] as const,
};

/** The breadcrumbs show the case number; the chrome feature's key, refreshed after a case changes stage. */
export const breadcrumbsKeyPrefix = ["chrome", "breadcrumbs"] as const;
