import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableFooter from "@mui/material/TableFooter";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import type { BillableHoursReport } from "@vigil/contract";
import { ScrollRegion } from "../../../components/tables/scroll-region";
import { reportColumns, totalsRow } from "../report-csv";

const numeric = new Set(["Hours", "Cases", "Logs"]);

/**
 * A report's rows and its totals row, with the same columns (and cell text) as its CSV. The note under it says
 * how the totals are made, so a reader adding up the column gets the same figure.
 */
export function BillableHoursTable({
  report,
  label,
  emptyText = "No billable hours in this period.",
}: {
  report: BillableHoursReport;
  label: string;
  emptyText?: string;
}) {
  const columns = reportColumns(report);
  const totals = totalsRow(report);
  return (
    <ScrollRegion label={label}>
      <Table size="small" aria-label={label} sx={{ captionSide: "bottom" }}>
        <caption>
          Total hours is the sum of the rows shown. Cases in the total counts each case once over the period, so it can
          be less than the sum of the rows.
        </caption>
        <TableHead>
          <TableRow>
            {columns.map((column) => (
              <TableCell
                key={column.header}
                align={numeric.has(column.header) ? "right" : "left"}
                sx={{ fontWeight: 600 }}
              >
                {column.header}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {report.rows.length === 0 ? (
            <TableRow>
              <TableCell colSpan={columns.length}>{emptyText}</TableCell>
            </TableRow>
          ) : (
            report.rows.map((row) => (
              <TableRow key={row.key} hover>
                {columns.map((column) => (
                  <TableCell key={column.header} align={numeric.has(column.header) ? "right" : "left"}>
                    {column.value(row)}
                  </TableCell>
                ))}
              </TableRow>
            ))
          )}
        </TableBody>
        <TableFooter>
          <TableRow>
            {columns.map((column) => (
              <TableCell
                key={column.header}
                align={numeric.has(column.header) ? "right" : "left"}
                sx={{ fontWeight: 700, color: "text.primary", fontSize: "0.875rem" }}
              >
                {column.value(totals)}
              </TableCell>
            ))}
          </TableRow>
        </TableFooter>
      </Table>
    </ScrollRegion>
  );
}
