import type { BillableHoursReport, BillableHoursRow } from "@vigil/contract";
import { type CsvColumn, toCsv } from "../../components/tables/csv";
import { groupingLabels } from "./report-labels";

/** The table's columns, in the table's order and words: the CSV has exactly these. */
export function reportColumns(report: Pick<BillableHoursReport, "groupBy">): CsvColumn<BillableHoursRow>[] {
  return [
    { header: groupingLabels[report.groupBy], value: (row) => row.label },
    { header: "Hours", value: (row) => row.hours },
    { header: "Cases", value: (row) => row.caseCount },
    { header: "Logs", value: (row) => row.logCount },
  ];
}

/** The totals as one more row of the same columns, labelled "Total". */
export function totalsRow(report: Pick<BillableHoursReport, "totals">): BillableHoursRow {
  return { key: "total", label: "Total", ...report.totals };
}

export type ReportCsvFilters = {
  /** The client filter in words ("All clients", "St. Mary's (SMRMC)"). */
  client: string;
  /** The technologist filter in words. */
  technologist: string;
};

/** One line of the leading comment: `#` first so readers can skip it, and never a line break inside. */
function commentLine(text: string): string {
  return `# ${text.replace(/[\r\n]+/g, " ")}`;
}

/**
 * The report as shown, as CSV: a few `#` comment lines naming the filters (from the report itself, so they always
 * match its rows), then a plain header row, the rows, and the totals as a last row labelled "Total". Hours stay
 * the server's decimal strings.
 */
export function reportCsv(report: BillableHoursReport, filters: ReportCsvFilters): string {
  const comments = [
    commentLine("Continuous monitoring billable hours"),
    commentLine(`Period: ${report.from} to ${report.to} (days in each client's time zone)`),
    commentLine(`Grouped by: ${groupingLabels[report.groupBy]}`),
    commentLine(`Client: ${filters.client}`),
    commentLine(`Technologist: ${filters.technologist}`),
    commentLine(`Generated at: ${report.generatedAt}`),
    commentLine("Total hours is the sum of the rows shown; Cases in the total counts each case once."),
  ];
  return `${comments.join("\r\n")}\r\n${toCsv(reportColumns(report), [...report.rows, totalsRow(report)])}`;
}

/** `billable-hours-2026-11-01-to-2026-11-22-by-day.csv` */
export function reportCsvFilename(report: Pick<BillableHoursReport, "from" | "to" | "groupBy">): string {
  return `billable-hours-${report.from}-to-${report.to}-by-${report.groupBy}.csv`;
}
