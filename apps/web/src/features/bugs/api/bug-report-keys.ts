import type { BugSeverity, BugStatus } from "@vigil/contract";

/** The filters of the bug-report list, as the list's URL holds them and the server reads them. */
export type BugReportListFilters = {
  status: BugStatus | undefined;
  severity: BugSeverity | undefined;
  reporter: string;
  search: string;
  sort: "newest" | "oldest" | "severity" | "updated";
};

export type BugReportListParams = BugReportListFilters & { limit: number; offset: number };

/**
 * Query keys of the bug reports. Everything sits under `["bugs", "reports"]`, apart from the unit-test
 * catalogue and the integration checks that share the feature, so a status change can refresh the lists
 * with one prefix.
 */
export const bugReportKeys = {
  all: ["bugs", "reports"] as const,
  lists: () => [...bugReportKeys.all, "list"] as const,
  list: (params: BugReportListParams) => [...bugReportKeys.lists(), params] as const,
  detail: (id: string) => [...bugReportKeys.all, "detail", id] as const,
};
