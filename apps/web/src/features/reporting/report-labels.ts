import type { ReportGrouping } from "@vigil/contract";

/** The group-by switch's words, also the first column's header of the table and the CSV. */
export const groupingLabels: Record<ReportGrouping, string> = {
  day: "Day",
  week: "Week",
  month: "Month",
  client: "Client",
  technologist: "Technologist",
};

const calendarDate = new Intl.DateTimeFormat("en-US", {
  timeZone: "UTC",
  year: "numeric",
  month: "short",
  day: "numeric",
});

/** A calendar day ("2026-11-01") as words ("Nov 1, 2026"); the day is the same everywhere, so it is read in UTC. */
export function formatCalendarDate(value: string): string {
  const date = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? value : calendarDate.format(date);
}

/** "Nov 1, 2026 – Nov 22, 2026" (both ends inclusive). */
export function formatPeriod(from: string, to: string): string {
  return `${formatCalendarDate(from)} – ${formatCalendarDate(to)}`;
}
