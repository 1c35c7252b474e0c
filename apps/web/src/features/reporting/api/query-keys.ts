import type { ReportGrouping } from "@vigil/contract";

/** What a billable-hours report is asked for (the contract's query, with the grouping always named). */
export type BillableHoursParams = {
  from: string;
  to: string;
  groupBy: ReportGrouping;
  clientId?: string;
  technologist?: string;
};

/**
 * Query keys of the reporting feature. Its pickers and the client it prints are read under its own keys: features
 * do not share each other's caches, and these lists are small.
 */
export const reportingKeys = {
  all: ["reporting"] as const,
  billableHours: (params: BillableHoursParams) => [...reportingKeys.all, "billable-hours", params] as const,
  client: (clientId: string) => [...reportingKeys.all, "client", clientId] as const,
  clientOptions: () => [...reportingKeys.all, "pickers", "client-ids"] as const,
  technologistOptions: () => [...reportingKeys.all, "pickers", "technologists"] as const,
};
