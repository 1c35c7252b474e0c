import type { InvoiceStatus } from "@vigil/contract";

/** One page of clients × months; the filters are what the URL holds, already checked. */
export type BillingMonthsParams = {
  from?: string;
  to?: string;
  clientId?: string;
  missingRate?: boolean;
  limit: number;
  offset: number;
};

/** One page of invoices; the filters are what the URL holds, already checked. */
export type InvoicesParams = {
  clientId?: string;
  status?: InvoiceStatus;
  from?: string;
  to?: string;
  limit: number;
  offset: number;
};

/**
 * Query keys of the billing feature. A new rate changes amounts in lists and statements alike, so everything
 * sits under `all` and one invalidation refreshes it.
 */
export const billingKeys = {
  all: ["billing"] as const,
  months: () => [...billingKeys.all, "months"] as const,
  monthList: (params: BillingMonthsParams) => [...billingKeys.months(), params] as const,
  statement: (clientId: string, month: string) => [...billingKeys.all, "statement", clientId, month] as const,
  invoices: () => [...billingKeys.all, "invoices"] as const,
  invoiceList: (params: InvoicesParams) => [...billingKeys.invoices(), "list", params] as const,
  invoice: (id: string) => [...billingKeys.invoices(), "one", id] as const,
  profile: (clientId: string) => [...billingKeys.all, "profile", clientId] as const,
};
