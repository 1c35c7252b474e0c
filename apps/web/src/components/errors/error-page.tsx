import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { Link as RouterLink } from "react-router";

export type ErrorPageProps = { status: number; title: string; children?: ReactNode };

/** The shared body of the 404 and 500 pages: status, heading, detail, a way home. */
export function ErrorPage({ status, title, children }: ErrorPageProps) {
  return (
    <Box sx={{ py: 6, textAlign: "center" }} data-status={status}>
      <Typography variant="overline" component="p" color="text.secondary" sx={{ fontSize: "1rem" }}>
        Error {status}
      </Typography>
      <Typography variant="h4" component="h1" gutterBottom>
        {title}
      </Typography>
      {children}
      <Button component={RouterLink} to="/" variant="contained" sx={{ mt: 3 }}>
        Go to the home page
      </Button>
    </Box>
  );
}
