import Box from "@mui/material/Box";
import { type Electrode, electrodes } from "@vigil/contract";
import type { ReactNode } from "react";
import { electrodePositions } from "./impedance-levels";

/**
 * The 10–20 electrodes laid out like the head map (nose at the top, left hemisphere on the left, ears outside),
 * each cell drawn by `renderCell`. Narrow screens get a plain grid in montage order instead.
 */
export function ElectrodeHeadMap({
  label,
  renderCell,
  component = "ul",
}: {
  label: string;
  renderCell: (electrode: Electrode) => ReactNode;
  /** A list to read (ul) or a group of inputs (div). */
  component?: "ul" | "div";
}) {
  const itemComponent = component === "ul" ? "li" : "div";
  return (
    <Box
      component={component}
      aria-label={label}
      role={component === "div" ? "group" : undefined}
      sx={{
        listStyle: "none",
        m: 0,
        p: { xs: 0, md: 2 },
        display: "grid",
        gap: 1,
        gridTemplateColumns: { xs: "repeat(auto-fill, minmax(96px, 1fr))", md: "repeat(7, minmax(0, 1fr))" },
        // The head outline: an ellipse behind the middle five columns.
        position: "relative",
        "&::before": {
          content: '""',
          display: { xs: "none", md: "block" },
          position: "absolute",
          top: 0,
          bottom: 0,
          left: "calc(100% / 7 - 4px)",
          right: "calc(100% / 7 - 4px)",
          border: 1,
          borderColor: "divider",
          borderRadius: "50%",
          pointerEvents: "none",
        },
      }}
    >
      {electrodes.map((electrode) => {
        const { row, column } = electrodePositions[electrode];
        return (
          <Box
            key={electrode}
            component={itemComponent}
            sx={{ gridRow: { md: row }, gridColumn: { md: column }, minWidth: 0, position: "relative" }}
          >
            {renderCell(electrode)}
          </Box>
        );
      })}
    </Box>
  );
}
