import SwipeLeft from "@mui/icons-material/SwipeLeft";
import Box from "@mui/material/Box";
import type { SxProps, Theme } from "@mui/material/styles";
import Typography from "@mui/material/Typography";
import { type ReactNode, useLayoutEffect, useRef, useState } from "react";

/** Whether the box is narrower than what it holds, followed as either changes size (a phone turned, rows loaded). */
function useOverflowsSideways(box: React.RefObject<HTMLElement | null>): boolean {
  const [overflows, setOverflows] = useState(false);
  useLayoutEffect(() => {
    const element = box.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const measure = () => setOverflows(element.scrollWidth > element.clientWidth + 1);
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    for (const child of Array.from(element.children)) observer.observe(child);
    measure();
    return () => observer.disconnect();
  }, [box]);
  return overflows;
}

export type ScrollRegionProps = {
  /** What the box holds ("Users", "Cases billed in November 2026"): the region's name while it scrolls. */
  label: string;
  children: ReactNode;
  className?: string;
  sx?: SxProps<Theme>;
};

/**
 * A box that scrolls sideways when what it holds (a wide table, a long chart) is wider than the screen. Only then it
 * is a named region in the tab order, so a keyboard user can reach it and scroll with the arrow keys (a mouse or a
 * finger could scroll it anyway), and a line above it says that there is more to the side. On a wide screen it is a
 * plain box. Paper has no scrolling: print styles set `overflow: visible` through `className`.
 */
export function ScrollRegion({ label, children, className, sx }: ScrollRegionProps) {
  const box = useRef<HTMLDivElement>(null);
  const overflows = useOverflowsSideways(box);
  return (
    <>
      {overflows ? (
        <Typography
          variant="caption"
          color="text.secondary"
          className="vigil-no-print"
          aria-hidden="true"
          sx={{ display: "flex", alignItems: "center", gap: 0.5, px: 1, py: 0.5 }}
        >
          <SwipeLeft fontSize="inherit" />
          Scroll sideways for more
        </Typography>
      ) : null}
      <Box
        ref={box}
        className={className}
        role={overflows ? "region" : undefined}
        aria-label={overflows ? label : undefined}
        tabIndex={overflows ? 0 : undefined}
        sx={[
          {
            width: "100%",
            overflowX: "auto",
            "&:focus-visible": { outline: "2px solid", outlineColor: "primary.main", outlineOffset: -2 },
          },
          ...(Array.isArray(sx) ? sx : [sx]),
        ]}
      >
        {children}
      </Box>
    </>
  );
}
