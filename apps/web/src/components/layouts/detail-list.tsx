import Box from "@mui/material/Box";
import type { SxProps, Theme } from "@mui/material/styles";
import Typography from "@mui/material/Typography";
import { createContext, type ReactNode, useContext } from "react";

type ListLayout = { labelWidth: number; dense: boolean };

const Layout = createContext<ListLayout>({ labelWidth: 220, dense: false });

/**
 * A read-only record as a definition list (`<dl>`) of `DetailRow`s: each label beside its value from small screens
 * up, above it on phones.
 */
export function DetailList({
  labelWidth = 220,
  dense = false,
  sx,
  children,
}: {
  /** The label column's width in pixels: wide enough for the list's longest label. */
  labelWidth?: number;
  /** Less space between rows, for long lists of settings. */
  dense?: boolean;
  sx?: SxProps<Theme>;
  children: ReactNode;
}) {
  return (
    <Layout.Provider value={{ labelWidth, dense }}>
      <Box component="dl" sx={[{ m: 0 }, ...(Array.isArray(sx) ? sx : [sx])]}>
        {children}
      </Box>
    </Layout.Provider>
  );
}

/** One term and its value in a `DetailList`; an empty value shows a grey dash, so a blank field still reads as a row. */
export function DetailRow({ label, children }: { label: string; children: ReactNode }) {
  const { labelWidth, dense } = useContext(Layout);
  return (
    <Box
      sx={{
        display: "grid",
        gridTemplateColumns: { xs: "1fr", sm: `${labelWidth}px 1fr` },
        gap: 1,
        py: dense ? 0.75 : 1,
      }}
    >
      <Typography component="dt" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, whiteSpace: "pre-wrap" }}>
        {children || (
          <Box component="span" sx={{ color: "text.secondary" }}>
            —
          </Box>
        )}
      </Typography>
    </Box>
  );
}
