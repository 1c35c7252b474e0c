import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Skeleton from "@mui/material/Skeleton";
import TableCell from "@mui/material/TableCell";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";

export type TableBodyStatesProps = {
  /** One key per column: the loading placeholders fill each. */
  columnKeys: readonly string[];
  /** Nothing to show yet (first load). */
  loading: boolean;
  error?: unknown;
  onRetry?: () => void;
  errorMessage: string;
  /** No row to show: the message takes the whole width. */
  empty: boolean;
  emptyMessage: ReactNode;
  /** The rows, shown once loaded without error and not empty. */
  children: ReactNode;
};

/**
 * What a table body shows in each state, the same in every list: placeholder rows while the first page loads, the
 * error with "Try again", the empty message, else the rows.
 */
export function TableBodyStates({
  columnKeys,
  loading,
  error,
  onRetry,
  errorMessage,
  empty,
  emptyMessage,
  children,
}: TableBodyStatesProps) {
  if (loading) {
    return [0, 1, 2].map((index) => (
      <TableRow key={`loading-${index}`} aria-hidden="true">
        {columnKeys.map((key) => (
          <TableCell key={key}>
            <Skeleton variant="text" />
          </TableCell>
        ))}
      </TableRow>
    ));
  }
  if (error) {
    return (
      <TableRow>
        <TableCell colSpan={columnKeys.length}>
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
            {errorMessage}
          </Alert>
        </TableCell>
      </TableRow>
    );
  }
  if (empty) {
    return (
      <TableRow>
        <TableCell colSpan={columnKeys.length}>
          <Typography color="text.secondary" sx={{ py: 3, textAlign: "center" }}>
            {emptyMessage}
          </Typography>
        </TableCell>
      </TableRow>
    );
  }
  return children;
}
