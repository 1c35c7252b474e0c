import {
  clockReportLabels,
  criticalFindingKindLabels,
  type ServiceLevelBreach,
  type ServiceLevelCriticalFindings,
  type ServiceLevelKindFigures,
  type ServiceLevelMissedFinding,
  type ServiceLevelReport,
} from "@vigil/contract";
import { decimalMinutes, formatDuration } from "../../components/clocks/format-duration";
import { type CsvColumn, toCsv } from "../../components/tables/csv";

/** Each promise in words (PRODUCT.md §10), the per-kind table's first column, the chart's series and the CSV's. */
export const promiseLabels = clockReportLabels;

const breachEndLabels: Record<ServiceLevelBreach["end"], string> = {
  stopped: "Done late",
  ended: "Never done",
  running: "Still open",
};

/** How the percentiles are computed: said beside them on screen and at the top of the CSV. */
export const percentileMethod =
  "Percentiles are nearest rank: p50 is the smallest time with at least half of the times at or below it, p90 the " +
  "smallest with at least nine in ten, so each is a time that was measured (of 0 and 1 min the p50 is 0, where a " +
  "spreadsheet's PERCENTILE.INC would give 0.5). Every time is rounded up to the second.";

/**
 * A column of the report: `header` and `value` as the screen shows them; `csvHeader` and `csv` where the CSV differs
 * (a duration as a number of minutes with the unit in its header, an empty cell where the screen writes "—").
 */
export type ReportColumn<Row> = CsvColumn<Row> & {
  csvHeader?: string;
  csv?: (row: Row) => string | number | null;
};

/** The columns as the CSV writes them. */
export function csvColumnsOf<Row>(columns: readonly ReportColumn<Row>[]): CsvColumn<Row>[] {
  return columns.map((column) => ({ header: column.csvHeader ?? column.header, value: column.csv ?? column.value }));
}

/** A duration: words on screen ("1 min 15 s", "—" for none), decimal minutes in the CSV (an empty cell for none). */
function durationColumn<Row>(header: string, seconds: (row: Row) => number | null | undefined): ReportColumn<Row> {
  return {
    header,
    csvHeader: `${header} (min)`,
    value: (row) => {
      const value = seconds(row);
      return value === null || value === undefined ? "—" : formatDuration(value);
    },
    csv: (row) => {
      const value = seconds(row);
      return value === null || value === undefined ? null : decimalMinutes(value);
    },
  };
}

/**
 * An instant to the second in the client's zone: a step 15 s past its due time never reads as done at its due
 * minute. On screen with the zone's abbreviation; in the CSV as "2026-11-03 10:15:00", which sorts as text.
 */
function instantColumn<Row>(
  header: string,
  instant: (row: Row) => string | null,
  timeZone: string,
  missing: string,
): ReportColumn<Row> {
  return {
    header,
    value: (row) => {
      const value = instant(row);
      return value ? formatInstantWithSeconds(value, timeZone) : missing;
    },
    csv: (row) => {
      const value = instant(row);
      return value ? sortableInstant(value, timeZone) : missing === "—" ? null : missing;
    },
  };
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per locale and zone, made once (UTC for a zone the runtime does not know). */
function formatterFor(locale: "en-US" | "sv-SE", timeZone: string): Intl.DateTimeFormat {
  const key = `${locale} ${timeZone}`;
  let format = formatters.get(key);
  if (!format) {
    const options: Intl.DateTimeFormatOptions = {
      year: "numeric",
      month: locale === "en-US" ? "short" : "2-digit",
      day: locale === "en-US" ? "numeric" : "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
      timeZoneName: locale === "en-US" ? "short" : undefined,
    };
    try {
      format = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    } catch {
      format = new Intl.DateTimeFormat(locale, { ...options, timeZone: "UTC" });
    }
    formatters.set(key, format);
  }
  return format;
}

/** "Nov 3, 2026, 10:15:00 EST". */
export function formatInstantWithSeconds(instant: string, timeZone: string): string {
  return formatterFor("en-US", timeZone).format(new Date(instant));
}

/** "2026-11-03 10:15:00" in the client's zone (named once at the top of the CSV). */
export function sortableInstant(instant: string, timeZone: string): string {
  return formatterFor("sv-SE", timeZone).format(new Date(instant));
}

/** "75.0%" of the decided clocks kept; "—" when none was decided. */
export function keptShare(figures: Pick<ServiceLevelKindFigures, "kept" | "missed">): string {
  const decided = figures.kept + figures.missed;
  return decided === 0 ? "—" : `${((figures.kept / decided) * 100).toFixed(1)}%`;
}

/** The same share as a number for the CSV ("75.0"), empty when none was decided. */
function keptPercent(figures: Pick<ServiceLevelKindFigures, "kept" | "missed">): string | null {
  const decided = figures.kept + figures.missed;
  return decided === 0 ? null : ((figures.kept / decided) * 100).toFixed(1);
}

/** "November 2026" for "2026-11": a month is the same everywhere, so it is read in UTC. */
export function formatMonth(month: string): string {
  const date = new Date(`${month}-01T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return month;
  return new Intl.DateTimeFormat("en-US", { timeZone: "UTC", month: "long", year: "numeric" }).format(date);
}

/** "Nov 26" for the chart's axis. */
export function formatShortMonth(month: string): string {
  const date = new Date(`${month}-01T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return month;
  return new Intl.DateTimeFormat("en-US", { timeZone: "UTC", month: "short", year: "2-digit" }).format(date);
}

/** The per-kind table's columns: the screen and the CSV show these (the CSV's durations in minutes). */
export const kindColumns: ReportColumn<ServiceLevelKindFigures>[] = [
  { header: "Promise", value: (row) => promiseLabels[row.kind] },
  { header: "Kept", value: (row) => row.kept },
  { header: "Missed", value: (row) => row.missed },
  { header: "Kept share", csvHeader: "Kept share (%)", value: (row) => keptShare(row), csv: keptPercent },
  { header: "Not yet due", value: (row) => row.pending },
  durationColumn("Time taken p50", (row) => row.takenSeconds?.p50),
  durationColumn("Time taken p90", (row) => row.takenSeconds?.p90),
  durationColumn("Time taken max", (row) => row.takenSeconds?.max),
  durationColumn("Late by p50", (row) => row.lateSeconds?.p50),
  durationColumn("Late by p90", (row) => row.lateSeconds?.p90),
  durationColumn("Late by max", (row) => row.lateSeconds?.max),
];

/** The breached list's columns, times in the client's zone to the second. */
export function breachColumns(timeZone: string): ReportColumn<ServiceLevelBreach>[] {
  return [
    { header: "Case", value: (row) => row.caseNumber },
    { header: "Promise", value: (row) => promiseLabels[row.kind] },
    instantColumn("Due", (row) => row.dueAt, timeZone, "—"),
    instantColumn("Done", (row) => row.stoppedAt, timeZone, "—"),
    { header: "Outcome", value: (row) => breachEndLabels[row.end] },
    durationColumn("Late by", (row) => row.lateSeconds),
  ];
}

/** The critical findings' figures as one row: the screen and the CSV show these (the CSV's durations in minutes). */
export const criticalFindingColumns: ReportColumn<ServiceLevelCriticalFindings>[] = [
  { header: "Findings", value: (row) => row.count },
  { header: "Acknowledged in time", value: (row) => row.acknowledgedInTime },
  { header: "Acknowledged late", value: (row) => row.acknowledgedLate },
  { header: "Not acknowledged", value: (row) => row.notAcknowledged },
  { header: "Not yet due", value: (row) => row.pending },
  { header: "Cancelled", value: (row) => row.cancelled },
  durationColumn("To acknowledgement p50", (row) => row.acknowledgementSeconds?.p50),
  durationColumn("To acknowledgement p90", (row) => row.acknowledgementSeconds?.p90),
  durationColumn("To acknowledgement max", (row) => row.acknowledgementSeconds?.max),
  durationColumn("EEG onset to raised p50", (row) => row.onsetToRaisedSecondsP50),
  durationColumn("Raised to first message p50", (row) => row.raisedToNotifiedSecondsP50),
];

/** The missed acknowledgement windows, times in the client's zone; "Not acknowledged" where none came. */
export function missedFindingColumns(timeZone: string): ReportColumn<ServiceLevelMissedFinding>[] {
  return [
    { header: "Case", value: (row) => row.caseNumber },
    { header: "Finding", value: (row) => criticalFindingKindLabels[row.kind] },
    instantColumn("Raised", (row) => row.raisedAt, timeZone, "—"),
    instantColumn("Due", (row) => row.dueAt, timeZone, "—"),
    instantColumn("Acknowledged", (row) => row.acknowledgedAt, timeZone, "Not acknowledged"),
    durationColumn("Late by", (row) => row.lateSeconds),
  ];
}

function commentLine(text: string): string {
  return `# ${text.replace(/[\r\n]+/g, " ")}`;
}

/**
 * The report as shown, as CSV: `#` lines naming the client, month, zone, units and the percentile method, the
 * per-kind table, a blank line, the breached clocks, then (each after a blank line) the critical findings' figures
 * and their missed windows. Durations are decimal minutes and cells without a value are empty, so a spreadsheet
 * sums and sorts them.
 */
export function serviceLevelCsv(report: ServiceLevelReport): string {
  const comments = [
    commentLine("Continuous monitoring service levels"),
    commentLine(`Client: ${report.clientName} (${report.clientCode})`),
    commentLine(`Month: ${report.month}, clocks counted in the month their due time falls in (${report.timeZone})`),
    commentLine(`Times are in ${report.timeZone}; durations are decimal minutes (the unit is in each header).`),
    commentLine(percentileMethod),
    commentLine(`As of: ${report.asOf}`),
  ];
  return [
    comments.join("\r\n"),
    toCsv(csvColumnsOf(kindColumns), report.kinds).trimEnd(),
    "",
    toCsv(csvColumnsOf(breachColumns(report.timeZone)), report.breaches).trimEnd(),
    "",
    toCsv(csvColumnsOf(criticalFindingColumns), [report.criticalFindings]).trimEnd(),
    "",
    toCsv(csvColumnsOf(missedFindingColumns(report.timeZone)), report.criticalFindings.missed),
  ].join("\r\n");
}

/** `service-levels-SMRMC-2026-11.csv` */
export function serviceLevelCsvFilename(report: Pick<ServiceLevelReport, "clientCode" | "month">): string {
  return `service-levels-${report.clientCode.replace(/[^A-Za-z0-9_-]+/g, "-")}-${report.month}.csv`;
}
