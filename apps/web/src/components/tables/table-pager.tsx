import TablePagination, { type TablePaginationProps } from "@mui/material/TablePagination";

/**
 * MUI's pager under a table, fitted to narrow screens: its one-line toolbar (rows per page, "1–25 of 80", the
 * arrows) is wider than a phone, and the arrows, last in the line, were cut off out of reach. Here the line wraps,
 * so the arrows move under the rest instead.
 */
export function TablePager(props: TablePaginationProps<"div">) {
  return (
    <TablePagination
      {...props}
      component="div"
      sx={{
        "& .MuiTablePagination-toolbar": { flexWrap: "wrap", justifyContent: "flex-end", rowGap: 0.5, pl: 2 },
        "& .MuiTablePagination-spacer": { display: { xs: "none", sm: "block" } },
        "& .MuiTablePagination-actions": { ml: { xs: 1, sm: 2.5 } },
      }}
    />
  );
}
