import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import { ApiRequestError } from "../../lib/api-client";

/** A query that failed: what could not be loaded, the server's reason, and a retry. */
export function QueryError({ what, error, onRetry }: { what: string; error: unknown; onRetry?: () => void }) {
  const reason = error instanceof ApiRequestError ? error.body.message : undefined;
  return (
    <Alert
      severity="error"
      action={
        onRetry ? (
          <Button color="inherit" size="small" onClick={onRetry}>
            Try again
          </Button>
        ) : undefined
      }
    >
      {what} could not be loaded{reason ? `: ${reason}` : "."}
    </Alert>
  );
}

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiRequestError && error.body.status === 404;
}
