import type { RecordArea } from "@vigil/contract";
import { sharedKeys } from "../../../api/query-keys";

export type RecordListParams = { includeDeleted: boolean; limit: number; offset: number };

/**
 * Query keys of the case-records feature. Everything of one kind on one case sits under `kind(caseId, kind)`, so
 * a change refreshes the kind's lists and histories with one prefix.
 */
export const recordKeys = {
  all: ["case-records"] as const,
  case: (caseId: string) => sharedKeys.caseRecords(caseId),
  kind: (caseId: string, kind: RecordArea) => [...recordKeys.case(caseId), kind] as const,
  lists: (caseId: string, kind: RecordArea) => [...recordKeys.kind(caseId, kind), "list"] as const,
  list: (caseId: string, kind: RecordArea, params: RecordListParams) =>
    [...recordKeys.lists(caseId, kind), params] as const,
  histories: (caseId: string, kind: RecordArea) => [...recordKeys.kind(caseId, kind), "history"] as const,
  history: (caseId: string, kind: RecordArea, itemId: string) =>
    [...recordKeys.histories(caseId, kind), itemId] as const,
  patientDetails: (caseId: string) => [...recordKeys.kind(caseId, "patient-details"), "current"] as const,
};
