import {
  type ClockKind,
  criticalFindingKindLabels,
  type DurationPercentiles,
  formatInstantInZone,
  type ServiceLevelBreach,
  type ServiceLevelCriticalFindings,
  type ServiceLevelKindFigures,
  type ServiceLevelMissedFinding,
  type ServiceLevelReport,
} from "@vigil/contract";
import { type CsvColumn, toCsv } from "../../components/tables/csv";

/** Each promise in words (PRODUCT.md §10), the per-kind table's first column, the chart's series and the CSV's. */
export const promiseLabels: Record<ClockKind, string> = {
  "stat-acknowledgement": "STAT case taken by a reviewer",
  "impedance-check": "Impedance check",
  "intermittent-review": "Intermittent review check (every 2 h)",
  "review-turnaround": "Review turnaround",
  "critical-notification": "Critical finding acknowledgement",
};

const breachEndLabels: Record<ServiceLevelBreach["end"], string> = {
  stopped: "Done late",
  ended: "Never done",
  running: "Still open",
};

/** Whole minutes as "45 min", "2 h 05 min", "3 d 4 h 00 min". */
export function formatMinutes(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = String(minutes % 60).padStart(2, "0");
  return days > 0 ? `${days} d ${hours} h ${rest} min` : `${hours} h ${rest} min`;
}

function percentile(value: DurationPercentiles | null, key: keyof DurationPercentiles): string {
  return value ? formatMinutes(value[key]) : "—";
}

/** "75.0%" of the decided clocks kept; "—" when none was decided. */
export function keptShare(figures: Pick<ServiceLevelKindFigures, "kept" | "missed">): string {
  const decided = figures.kept + figures.missed;
  return decided === 0 ? "—" : `${((figures.kept / decided) * 100).toFixed(1)}%`;
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

/** The per-kind table's columns: the screen and the CSV show exactly these. */
export const kindColumns: CsvColumn<ServiceLevelKindFigures>[] = [
  { header: "Promise", value: (row) => promiseLabels[row.kind] },
  { header: "Kept", value: (row) => row.kept },
  { header: "Missed", value: (row) => row.missed },
  { header: "Kept share", value: (row) => keptShare(row) },
  { header: "Not yet due", value: (row) => row.pending },
  { header: "Time taken p50", value: (row) => percentile(row.takenMinutes, "p50") },
  { header: "p90", value: (row) => percentile(row.takenMinutes, "p90") },
  { header: "max", value: (row) => percentile(row.takenMinutes, "max") },
  { header: "Late by p50", value: (row) => percentile(row.lateMinutes, "p50") },
  { header: "Late p90", value: (row) => percentile(row.lateMinutes, "p90") },
  { header: "Late max", value: (row) => percentile(row.lateMinutes, "max") },
];

/** The breached list's columns, times in the client's zone. */
export function breachColumns(timeZone: string): CsvColumn<ServiceLevelBreach>[] {
  return [
    { header: "Case", value: (row) => row.caseNumber },
    { header: "Promise", value: (row) => promiseLabels[row.kind] },
    { header: "Due", value: (row) => formatInstantInZone(row.dueAt, timeZone) },
    { header: "Done", value: (row) => (row.stoppedAt ? formatInstantInZone(row.stoppedAt, timeZone) : "—") },
    { header: "Outcome", value: (row) => breachEndLabels[row.end] },
    { header: "Late by", value: (row) => formatMinutes(row.lateMinutes) },
  ];
}

function optionalMinutes(value: number | null): string {
  return value === null ? "—" : formatMinutes(value);
}

/** The critical findings' figures as one row: the screen and the CSV show exactly these. */
export const criticalFindingColumns: CsvColumn<ServiceLevelCriticalFindings>[] = [
  { header: "Findings", value: (row) => row.count },
  { header: "Acknowledged in time", value: (row) => row.acknowledgedInTime },
  { header: "Acknowledged late", value: (row) => row.acknowledgedLate },
  { header: "Not acknowledged", value: (row) => row.notAcknowledged },
  { header: "Not yet due", value: (row) => row.pending },
  { header: "Cancelled", value: (row) => row.cancelled },
  { header: "To acknowledgement p50", value: (row) => percentile(row.acknowledgementMinutes, "p50") },
  { header: "p90", value: (row) => percentile(row.acknowledgementMinutes, "p90") },
  { header: "max", value: (row) => percentile(row.acknowledgementMinutes, "max") },
  { header: "EEG onset to raised p50", value: (row) => optionalMinutes(row.onsetToRaisedMinutesP50) },
  { header: "Raised to first message p50", value: (row) => optionalMinutes(row.raisedToNotifiedMinutesP50) },
];

/** The missed acknowledgement windows, times in the client's zone; "Not acknowledged" where none came. */
export function missedFindingColumns(timeZone: string): CsvColumn<ServiceLevelMissedFinding>[] {
  return [
    { header: "Case", value: (row) => row.caseNumber },
    { header: "Finding", value: (row) => criticalFindingKindLabels[row.kind] },
    { header: "Raised", value: (row) => formatInstantInZone(row.raisedAt, timeZone) },
    { header: "Due", value: (row) => formatInstantInZone(row.dueAt, timeZone) },
    {
      header: "Acknowledged",
      value: (row) => (row.acknowledgedAt ? formatInstantInZone(row.acknowledgedAt, timeZone) : "Not acknowledged"),
    },
    { header: "Late by", value: (row) => formatMinutes(row.lateMinutes) },
  ];
}

function commentLine(text: string): string {
  return `# ${text.replace(/[\r\n]+/g, " ")}`;
}

/**
 * The report as shown, as CSV: `#` lines naming the client, month and zone, the per-kind table, a blank line, the
 * breached clocks, then (each after a blank line) the critical findings' figures and their missed windows.
 */
export function serviceLevelCsv(report: ServiceLevelReport): string {
  const comments = [
    commentLine("Continuous monitoring service levels"),
    commentLine(`Client: ${report.clientName} (${report.clientCode})`),
    commentLine(`Month: ${report.month}, clocks counted in the month their due time falls in (${report.timeZone})`),
    commentLine(`As of: ${report.asOf}`),
  ];
  return [
    comments.join("\r\n"),
    toCsv(kindColumns, report.kinds).trimEnd(),
    "",
    toCsv(breachColumns(report.timeZone), report.breaches).trimEnd(),
    "",
    toCsv(criticalFindingColumns, [report.criticalFindings]).trimEnd(),
    "",
    toCsv(missedFindingColumns(report.timeZone), report.criticalFindings.missed),
  ].join("\r\n");
}

/** `service-levels-SMRMC-2026-11.csv` */
export function serviceLevelCsvFilename(report: Pick<ServiceLevelReport, "clientCode" | "month">): string {
  return `service-levels-${report.clientCode.replace(/[^A-Za-z0-9_-]+/g, "-")}-${report.month}.csv`;
}
