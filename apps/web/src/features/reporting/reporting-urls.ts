/** Web routes of the reporting screens (the contract's page table holds their patterns). */
export const reportingUrl = "/reporting";
export const billableHoursUrl = "/reporting/continuous-monitoring";

export type ReportUrlFilters = { from: string; to: string; client?: string; technologist?: string; groupBy?: string };

function withQuery(path: string, query: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/** The billable-hours overview with its filters in the URL. */
export function billableHoursOverviewUrl(filters: Partial<ReportUrlFilters> = {}): string {
  return withQuery(billableHoursUrl, {
    from: filters.from,
    to: filters.to,
    client: filters.client,
    technologist: filters.technologist,
    groupBy: filters.groupBy,
  });
}

/** The printable client report for a period: always with `from` and `to`, so a printed link says what it showed. */
export function clientReportUrl(clientId: string, period: { from: string; to: string }): string {
  return withQuery(`${billableHoursUrl}/${encodeURIComponent(clientId)}`, { from: period.from, to: period.to });
}
