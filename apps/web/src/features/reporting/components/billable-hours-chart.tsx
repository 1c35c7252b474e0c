import Box from "@mui/material/Box";
import { BarChart } from "@mui/x-charts/BarChart";
import type { BillableHoursReport } from "@vigil/contract";
import { groupingLabels } from "../report-labels";

const barWidth = 36;
const axisRoom = 96;

/**
 * Hours per row as bars (the table below carries the same figures for reading and for screen readers). Bar heights
 * are the only place the hours become numbers. The width follows the number of bars, within bounds, and the box
 * scrolls sideways when a long period has many: charts measure nothing this way, in the browser or in tests.
 */
export function BillableHoursChart({
  report,
  height = 300,
  maxWidth = 1100,
}: {
  report: BillableHoursReport;
  height?: number;
  maxWidth?: number;
}) {
  const rows = report.rows;
  const width = Math.min(Math.max(rows.length * barWidth + axisRoom, 360), Math.max(maxWidth, 360));
  return (
    <Box
      component="figure"
      aria-label={`Billable hours by ${groupingLabels[report.groupBy].toLowerCase()}, as a chart`}
      sx={{ m: 0, overflowX: "auto", "@media print": { overflow: "visible" } }}
    >
      <BarChart
        width={width}
        height={height}
        hideLegend
        xAxis={[
          {
            scaleType: "band",
            data: rows.map((row) => row.label),
            label: groupingLabels[report.groupBy],
            tickLabelStyle: rows.length > 12 ? { angle: -45, textAnchor: "end", fontSize: 11 } : undefined,
            height: rows.length > 12 ? 72 : undefined,
          },
        ]}
        yAxis={[{ label: "Hours" }]}
        series={[
          {
            label: "Billable hours",
            data: rows.map((row) => Number(row.hours)),
            valueFormatter: (_value, context) => {
              const row = rows[context.dataIndex];
              return row ? `${row.hours} h` : null;
            },
            color: "#104080",
          },
        ]}
      />
    </Box>
  );
}
