import type { CaseStage } from "@vigil/contract";

/** Web routes of the clients screens (the contract's page table holds their patterns). */
export const clientsUrl = "/continuous-monitoring/clients";
export const clientCreateUrl = `${clientsUrl}/create`;

export type ClientTab = "overview" | "protocol" | "contacts" | "useful-links" | "cases";

export function clientUrl(clientId: string, tab: ClientTab = "overview"): string {
  return `${clientsUrl}/${encodeURIComponent(clientId)}/${tab}`;
}

export function contactCreateUrl(clientId: string): string {
  return `${clientsUrl}/${encodeURIComponent(clientId)}/contacts/create`;
}

export function usefulLinkCreateUrl(clientId: string): string {
  return `${clientsUrl}/${encodeURIComponent(clientId)}/useful-links/create`;
}

/** Case detail pages live under their stage (`/continuous-monitoring/cases/{stage}/{caseId}/{tab}`). */
export function caseUrl(stage: CaseStage, caseId: string): string {
  return `/continuous-monitoring/cases/${stage}/${encodeURIComponent(caseId)}/overview`;
}
