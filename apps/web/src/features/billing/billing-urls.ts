/** Web routes of the billing screens (the contract's page table holds their patterns). */
export const billingUrl = "/billing";
export const billingOverviewUrl = "/billing/continuous-monitoring";

export function billingClientUrl(clientId: string): string {
  return `${billingOverviewUrl}/${encodeURIComponent(clientId)}`;
}

export function billingStatementUrl(clientId: string, month: string): string {
  return `${billingClientUrl(clientId)}/${encodeURIComponent(month)}`;
}
