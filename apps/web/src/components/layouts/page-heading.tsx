import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";

/** The page's single h1. */
export function PageHeading({ children }: { children: ReactNode }) {
  return (
    <Typography variant="h4" component="h1" gutterBottom>
      {children}
    </Typography>
  );
}
