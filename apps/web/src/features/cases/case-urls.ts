import type { CaseStage } from "@vigil/contract";

/** Web routes of the case screens (the contract's page table holds their patterns). */
export const casesUrl = "/continuous-monitoring/cases";
export const caseCreateUrl = `${casesUrl}/create`;
export const assignmentsUrl = `${casesUrl}/assignments`;

export type CaseTab =
  | "overview"
  | "patient-details"
  | "interpretations"
  | "impedances"
  | "events"
  | "time-logs"
  | "case-notes"
  | "billing-notes"
  | "timeline"
  | "client-protocol";

export function caseQueueUrl(stage: CaseStage, filters: Record<string, string> = {}): string {
  const query = new URLSearchParams(filters).toString();
  return `${casesUrl}/${stage}${query ? `?${query}` : ""}`;
}

export function caseUrl(stage: CaseStage, caseId: string, tab: CaseTab = "overview"): string {
  return `${casesUrl}/${stage}/${encodeURIComponent(caseId)}/${tab}`;
}

/** The stage segment of a case page's path (`/continuous-monitoring/cases/{stage}/…`). */
export function stageOfPath(pathname: string): string | undefined {
  return pathname.split("/").filter(Boolean)[2];
}
