import Box from "@mui/material/Box";
import LinearProgress from "@mui/material/LinearProgress";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TableSortLabel from "@mui/material/TableSortLabel";
import type { ReactNode } from "react";
import { visuallyHidden } from "../visually-hidden";
import { ScrollRegion } from "./scroll-region";
import { TableBodyStates } from "./table-body-states";
import { TablePager } from "./table-pager";

export type SortOrder = "asc" | "desc";
export type SortState<K extends string = string> = { key: K; order: SortOrder };

export type ServerTableColumn<Row, K extends string = string> = {
  id: string;
  header: string;
  cell: (row: Row) => ReactNode;
  /** The server's sort key for this column; columns without one are not sortable. */
  sortKey?: K;
  align?: "left" | "right" | "center";
};

export type ServerTableProps<Row, K extends string = string> = {
  /** The table's accessible name (also its caption for screen readers). */
  label: string;
  columns: readonly ServerTableColumn<Row, K>[];
  rows: readonly Row[] | undefined;
  rowKey: (row: Row) => string;
  total: number;
  /** The total is the server's estimate (a long list it does not count exactly): the pager says "about N". */
  totalIsEstimate?: boolean;
  /** Zero-based. */
  page: number;
  pageSize: number;
  pageSizeOptions?: number[];
  onPageChange: (page: number) => void;
  onPageSizeChange?: (pageSize: number) => void;
  sort?: SortState<K>;
  onSortChange?: (sort: SortState<K>) => void;
  /** Nothing to show yet (first load). */
  loading: boolean;
  /** A newer page or filter is loading while the previous rows stay on screen. */
  fetching?: boolean;
  error?: unknown;
  onRetry?: () => void;
  errorMessage?: string;
  emptyMessage: ReactNode;
};

/**
 * A table over a server-paged list (`{ items, total }` with limit/offset): the server sorts, filters and pages;
 * this only renders one page, the sort headers and the pager. Loading, error and empty states are explicit.
 */
export function ServerTable<Row, K extends string = string>({
  label,
  columns,
  rows,
  rowKey,
  total,
  totalIsEstimate = false,
  page,
  pageSize,
  pageSizeOptions = [25, 50, 100],
  onPageChange,
  onPageSizeChange,
  sort,
  onSortChange,
  loading,
  fetching,
  error,
  onRetry,
  errorMessage = "The list could not be loaded.",
  emptyMessage,
}: ServerTableProps<Row, K>) {
  return (
    <Paper variant="outlined" sx={{ position: "relative" }}>
      <Box sx={{ height: 4 }}>{fetching && !loading ? <LinearProgress aria-label={`Loading ${label}`} /> : null}</Box>
      {loading ? (
        <Box role="status" sx={visuallyHidden}>
          Loading {label}…
        </Box>
      ) : null}
      <ScrollRegion label={label}>
        <Table size="small" aria-label={label} aria-busy={loading || fetching ? true : undefined}>
          <TableHead>
            <TableRow>
              {columns.map((column) => {
                const active = sort !== undefined && column.sortKey !== undefined && sort.key === column.sortKey;
                return (
                  <TableCell
                    key={column.id}
                    align={column.align}
                    sortDirection={active ? sort.order : false}
                    sx={{ fontWeight: 600 }}
                  >
                    {column.sortKey !== undefined && onSortChange ? (
                      <TableSortLabel
                        active={active}
                        direction={active ? sort.order : "asc"}
                        onClick={() =>
                          onSortChange({
                            key: column.sortKey as K,
                            order: active && sort.order === "asc" ? "desc" : "asc",
                          })
                        }
                      >
                        {column.header}
                        {active ? (
                          <Box component="span" sx={visuallyHidden}>
                            {sort.order === "desc" ? ", sorted descending" : ", sorted ascending"}
                          </Box>
                        ) : null}
                      </TableSortLabel>
                    ) : (
                      column.header
                    )}
                  </TableCell>
                );
              })}
            </TableRow>
          </TableHead>
          <TableBody>
            <TableBodyStates
              columnKeys={columns.map((column) => column.id)}
              loading={loading}
              error={error}
              onRetry={onRetry}
              errorMessage={errorMessage}
              empty={!rows || rows.length === 0}
              emptyMessage={emptyMessage}
            >
              {rows?.map((row) => (
                <TableRow key={rowKey(row)} hover>
                  {columns.map((column) => (
                    <TableCell key={column.id} align={column.align}>
                      {column.cell(row)}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBodyStates>
          </TableBody>
        </Table>
      </ScrollRegion>
      <TablePager
        count={total}
        page={total === 0 ? 0 : Math.min(page, Math.max(0, Math.ceil(total / pageSize) - 1))}
        rowsPerPage={pageSize}
        rowsPerPageOptions={onPageSizeChange ? pageSizeOptions : [pageSize]}
        onPageChange={(_event, next) => onPageChange(next)}
        onRowsPerPageChange={(event) => onPageSizeChange?.(Number(event.target.value))}
        {...(totalIsEstimate
          ? {
              labelDisplayedRows: ({ from, to, count }) => `${from}–${to} of about ${count.toLocaleString("en-US")}`,
            }
          : {})}
      />
    </Paper>
  );
}
