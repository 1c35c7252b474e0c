import Box from "@mui/material/Box";
import { BarChart } from "@mui/x-charts/BarChart";
import type { BillableHoursReport } from "@vigil/contract";
import { ScrollRegion } from "../../../components/tables/scroll-region";
import { groupingLabels } from "../report-labels";

const barWidth = 36;
const axisRoom = 96;
/** A generous width of one character of an 11 px tick label: estimated, since the chart measures nothing. */
const tickCharWidth = 7;
/** Longer labels (client names) may end in "…" on the axis; the tooltip and the table below carry them whole. */
const longestWholeTick = 20;

/**
 * Slanted tick labels need room below the axis and left of the first bar, or the chart cuts them ("Tue 1…"): the
 * height and left margin follow the longest label, up to `longestWholeTick` characters.
 */
function tickLayout(labels: readonly string[], width: number) {
  const longest = Math.min(Math.max(0, ...labels.map((label) => label.length)), longestWholeTick);
  const band = (width - axisRoom) / Math.max(labels.length, 1);
  if (longest * tickCharWidth <= band) return undefined;
  const extent = Math.ceil(longest * tickCharWidth * Math.SQRT1_2);
  return {
    style: { angle: -45, textAnchor: "end", fontSize: 11 } as const,
    // Below the axis: the slanted label, the tick, the gaps and the axis's own label.
    height: extent + 44,
    // Left of the first bar's middle: the y axis and half a bar are there already.
    marginLeft: Math.max(0, extent - 48 - band / 2),
  };
}

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
  const labels = rows.map((row) => row.label);
  const ticks = tickLayout(labels, width);
  const name = `Billable hours by ${groupingLabels[report.groupBy].toLowerCase()}, as a chart`;
  return (
    <Box component="figure" aria-label={name} sx={{ m: 0 }}>
      <ScrollRegion label={name} sx={{ "@media print": { overflow: "visible" } }}>
        <BarChart
          width={width}
          height={height}
          margin={ticks ? { left: ticks.marginLeft } : undefined}
          hideLegend
          xAxis={[
            {
              scaleType: "band",
              data: labels,
              label: groupingLabels[report.groupBy],
              tickLabelStyle: ticks?.style,
              height: ticks?.height,
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
      </ScrollRegion>
    </Box>
  );
}
