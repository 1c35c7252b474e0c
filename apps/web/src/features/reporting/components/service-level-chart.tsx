import Box from "@mui/material/Box";
import { BarChart } from "@mui/x-charts/BarChart";
import { type ClockKind, clockKinds, type ServiceLevelSeriesMonth } from "@vigil/contract";
import { ScrollRegion } from "../../../components/tables/scroll-region";
import { formatShortMonth, promiseLabels } from "../service-level-format";

/** One hue per promise: kept in its full colour, missed in the same hue's dark shade stacked on top. */
const kindColors: Record<ClockKind, { kept: string; missed: string }> = {
  "stat-acknowledgement": { kept: "#5b8def", missed: "#1a3d8f" },
  "impedance-check": { kept: "#4caf7d", missed: "#1d5e3b" },
  "intermittent-review": { kept: "#e0a43a", missed: "#7a5411" },
  "review-turnaround": { kept: "#b46cc4", missed: "#5b2466" },
  "critical-notification": { kept: "#e0675a", missed: "#7d1f16" },
};

/**
 * The 12 months ending with the report's month: per month one bar per promise, its kept clocks below and its
 * missed ones stacked on top. The table beside it carries the same figures for reading and for screen readers.
 */
export function ServiceLevelChart({ series, height = 320 }: { series: ServiceLevelSeriesMonth[]; height?: number }) {
  const labels = series.map((entry) => formatShortMonth(entry.month));
  const countOf = (entry: ServiceLevelSeriesMonth, kind: ClockKind, outcome: "kept" | "missed") =>
    entry.kinds.find((figures) => figures.kind === kind)?.[outcome] ?? 0;
  const name = "Kept and missed promises per month, as a chart";
  return (
    <Box component="figure" aria-label={name} sx={{ m: 0 }}>
      <ScrollRegion label={name} sx={{ "@media print": { overflow: "visible" } }}>
        <BarChart
          width={Math.max(640, series.length * 72 + 96)}
          height={height}
          xAxis={[{ scaleType: "band", data: labels, label: "Month (due time, client's zone)" }]}
          yAxis={[{ label: "Clocks" }]}
          series={clockKinds.flatMap((kind) =>
            (["kept", "missed"] as const).map((outcome) => ({
              label: `${promiseLabels[kind]}: ${outcome}`,
              stack: kind,
              data: series.map((entry) => countOf(entry, kind, outcome)),
              color: kindColors[kind][outcome],
            })),
          )}
        />
      </ScrollRegion>
    </Box>
  );
}
