import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Stack from "@mui/material/Stack";
import { useLayoutEffect } from "react";
import { useLocation } from "react-router";
import { dismissApiError, showApiErrorsOf, useApiErrors } from "../../lib/api-errors";

/**
 * The shared error list of spec §8: one dismissible alert per failed API call of the page on screen, newest last.
 * Leaving the page forgets its errors.
 */
export function ApiErrorStack() {
  const { pathname } = useLocation();
  // Before paint, so the previous page's errors never flash on the new one.
  useLayoutEffect(() => showApiErrorsOf(pathname), [pathname]);
  const entries = useApiErrors(pathname);
  if (entries.length === 0) return null;
  return (
    <Stack spacing={1} sx={{ mb: 2, displayPrint: "none" }} aria-label="Errors" component="section">
      {entries.map((entry) => (
        <Alert
          key={entry.id}
          severity="error"
          onClose={() => dismissApiError(entry.id)}
          slotProps={{ closeButton: { "aria-label": `Dismiss error: ${entry.error.message}` } }}
        >
          {entry.error.status > 0 ? <AlertTitle>Error {entry.error.status}</AlertTitle> : null}
          {entry.error.message}
        </Alert>
      ))}
    </Stack>
  );
}
