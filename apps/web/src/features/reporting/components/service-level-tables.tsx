import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import {
  clockKinds,
  type ServiceLevelBreach,
  type ServiceLevelCriticalFindings,
  type ServiceLevelKindFigures,
  type ServiceLevelMissedFinding,
  type ServiceLevelPerson,
  type ServiceLevelSeriesMonth,
} from "@vigil/contract";
import type { CsvColumn } from "../../../components/tables/csv";
import { ScrollRegion } from "../../../components/tables/scroll-region";
import {
  breachColumns,
  criticalFindingColumns,
  formatMonth,
  kindColumns,
  missedFindingColumns,
  promiseLabels,
} from "../service-level-format";

function ColumnsTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  emptyText,
  alignedRight = (index) => index > 0,
}: {
  label: string;
  columns: readonly CsvColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => string;
  emptyText: string;
  /** Which columns hold figures (right-aligned); by default every column but the first. */
  alignedRight?: (index: number, header: string) => boolean;
}) {
  return (
    <ScrollRegion label={label}>
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            {columns.map((column, index) => (
              <TableCell
                key={column.header}
                align={alignedRight(index, column.header) ? "right" : "left"}
                sx={{ fontWeight: 600 }}
              >
                {column.header}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.length === 0 ? (
            <TableRow>
              <TableCell colSpan={columns.length}>{emptyText}</TableCell>
            </TableRow>
          ) : (
            rows.map((row, rowIndex) => (
              <TableRow key={rowKey(row, rowIndex)} hover>
                {columns.map((column, index) => (
                  <TableCell key={column.header} align={alignedRight(index, column.header) ? "right" : "left"}>
                    {column.value(row)}
                  </TableCell>
                ))}
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
    </ScrollRegion>
  );
}

/** Each promise with its kept and missed clocks, the share kept, and the time taken and lateness percentiles. */
export function ServiceLevelKindsTable({ kinds }: { kinds: ServiceLevelKindFigures[] }) {
  return (
    <ColumnsTable
      label="Promises kept and missed"
      columns={kindColumns}
      rows={kinds}
      rowKey={(row) => row.kind}
      emptyText="No promise fell due in this month."
    />
  );
}

/** The missed clocks of the month: which case, which promise, when it was due, when done and how late. */
export function ServiceLevelBreachesTable({
  breaches,
  timeZone,
}: {
  breaches: ServiceLevelBreach[];
  timeZone: string;
}) {
  return (
    <ColumnsTable
      label="Missed promises"
      columns={breachColumns(timeZone)}
      rows={breaches}
      rowKey={(row, index) => `${row.caseId}-${row.kind}-${row.dueAt}-${index}`}
      emptyText="No promise was missed in this month."
      alignedRight={(_index, header) => header === "Late by"}
    />
  );
}

/** The month's critical findings in one row: how each window ended and the loop's times. */
export function ServiceLevelCriticalFindingsTable({ findings }: { findings: ServiceLevelCriticalFindings }) {
  return (
    <ColumnsTable
      label="Critical findings"
      columns={criticalFindingColumns}
      rows={[findings]}
      rowKey={() => "findings"}
      emptyText="No critical finding fell due in this month."
      alignedRight={() => true}
    />
  );
}

/** The findings whose acknowledgement window was missed: which case, what, when raised and due, how late. */
export function ServiceLevelMissedFindingsTable({
  missed,
  timeZone,
}: {
  missed: ServiceLevelMissedFinding[];
  timeZone: string;
}) {
  return (
    <ColumnsTable
      label="Missed acknowledgement windows"
      columns={missedFindingColumns(timeZone)}
      rows={missed}
      rowKey={(row) => row.findingId}
      emptyText="Every critical finding due in this month was acknowledged in time."
      alignedRight={(_index, header) => header === "Late by"}
    />
  );
}

const seriesColumns: CsvColumn<ServiceLevelSeriesMonth>[] = [
  { header: "Month", value: (row) => formatMonth(row.month) },
  ...clockKinds.map((kind) => ({
    header: `${promiseLabels[kind]} (kept / missed)`,
    value: (row: ServiceLevelSeriesMonth) => {
      const figures = row.kinds.find((entry) => entry.kind === kind);
      return `${figures?.kept ?? 0} / ${figures?.missed ?? 0}`;
    },
  })),
];

/** The chart's figures as a table, for reading and for screen readers. */
export function ServiceLevelSeriesTable({ series }: { series: ServiceLevelSeriesMonth[] }) {
  return (
    <ColumnsTable
      label="Kept and missed promises per month"
      columns={seriesColumns}
      rows={series}
      rowKey={(row) => row.month}
      emptyText="No months."
    />
  );
}

const roleLabels: Record<ServiceLevelPerson["role"], string> = { technologist: "Technologist", reviewer: "Reviewer" };

const peopleColumns: CsvColumn<ServiceLevelPerson>[] = [
  {
    header: "Person",
    value: (row) => (row.person ? (row.person.name ?? row.person.username) : "Nobody assigned (coordinators)"),
  },
  { header: "Role", value: (row) => roleLabels[row.role] },
  // A critical finding's acknowledgement is the hospital's step: the server counts it against no one.
  ...clockKinds
    .filter((kind) => kind !== "critical-notification")
    .map((kind) => ({
      header: `${promiseLabels[kind]} (kept / missed)`,
      value: (row: ServiceLevelPerson) => {
        const figures = row.kinds.find((entry) => entry.kind === kind);
        return figures ? `${figures.kept} / ${figures.missed}` : "—";
      },
    })),
  { header: "Kept", value: (row) => row.kept },
  { header: "Missed", value: (row) => row.missed },
];

/** Each technologist's and reviewer's kept and missed clocks of the month (administrators only). */
export function ServiceLevelPeopleTable({ people }: { people: ServiceLevelPerson[] }) {
  return (
    <ColumnsTable
      label="Promises per person"
      columns={peopleColumns}
      rows={people}
      rowKey={(row) => `${row.role}-${row.person?.username ?? ""}`}
      emptyText="Nobody owned a clock decided in this month."
      alignedRight={(index) => index > 1}
    />
  );
}
