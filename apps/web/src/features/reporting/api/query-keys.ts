import type { ReportGrouping } from "@vigil/contract";

/** What a billable-hours report is asked for (the contract's query, with the grouping always named). */
export type BillableHoursParams = {
  from: string;
  to: string;
  groupBy: ReportGrouping;
  clientId?: string;
  technologist?: string;
};

/** Which client-month a service-level report is asked for. */
export type ServiceLevelParams = { clientId: string; month: string };

/**
 * Query keys of the reporting feature: the reports themselves. The client and technologist pickers and the client a
 * report prints are shared reads (`src/api/`), cached once for every feature.
 */
export const reportingKeys = {
  all: ["reporting"] as const,
  billableHours: (params: BillableHoursParams) => [...reportingKeys.all, "billable-hours", params] as const,
  serviceLevels: (params: ServiceLevelParams) => [...reportingKeys.all, "service-levels", params] as const,
  serviceLevelPeople: (params: ServiceLevelParams) =>
    [...reportingKeys.all, "service-levels", params, "people"] as const,
};
