import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import FormControlLabel from "@mui/material/FormControlLabel";
import Paper from "@mui/material/Paper";
import Switch from "@mui/material/Switch";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { useState } from "react";

export type CompareRow = {
  /** Stable key (the field path). */
  key: string;
  label: string;
  left: string;
  right: string;
};

export type SideBySideCompareProps = {
  /** The table's accessible name ("Revision 2 compared with revision 3"). */
  label: string;
  leftTitle: string;
  rightTitle: string;
  rows: readonly CompareRow[];
  /** Start with unchanged rows hidden (the user can show them). */
  changedOnly?: boolean;
};

export function changedRows(rows: readonly CompareRow[]): CompareRow[] {
  return rows.filter((row) => row.left !== row.right);
}

/**
 * Two versions of the same record next to each other, one row per field; changed rows are marked with a word,
 * not only a colour. Used for revision diffs and for "someone else saved first" conflicts.
 */
export function SideBySideCompare({ label, leftTitle, rightTitle, rows, changedOnly = false }: SideBySideCompareProps) {
  const [onlyChanges, setOnlyChanges] = useState(changedOnly);
  const changes = changedRows(rows);
  const shown = onlyChanges ? changes : rows;
  return (
    <Box>
      <Box sx={{ display: "flex", alignItems: "center", gap: 2, flexWrap: "wrap", mb: 1 }}>
        <Typography role="status">
          {changes.length === 0
            ? "No differences."
            : `${changes.length} ${changes.length === 1 ? "field differs" : "fields differ"}.`}
        </Typography>
        <FormControlLabel
          control={<Switch checked={onlyChanges} onChange={(event) => setOnlyChanges(event.target.checked)} />}
          label="Only changed fields"
        />
      </Box>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label={label} sx={{ tableLayout: "fixed" }}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: "20%", fontWeight: 600 }}>Field</TableCell>
              <TableCell sx={{ width: "40%", fontWeight: 600 }}>{leftTitle}</TableCell>
              <TableCell sx={{ width: "40%", fontWeight: 600 }}>{rightTitle}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {shown.map((row) => {
              const changed = row.left !== row.right;
              return (
                <TableRow
                  key={row.key}
                  data-changed={changed ? "true" : undefined}
                  sx={changed ? { bgcolor: "rgba(255, 160, 0, 0.12)" } : undefined}
                >
                  <TableCell component="th" scope="row" sx={{ verticalAlign: "top" }}>
                    {row.label}
                    {changed ? (
                      <Chip label="Changed" size="small" color="warning" variant="outlined" sx={{ ml: 1 }} />
                    ) : null}
                  </TableCell>
                  <TableCell sx={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere", verticalAlign: "top" }}>
                    {row.left || <Typography color="text.secondary">(empty)</Typography>}
                  </TableCell>
                  <TableCell sx={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere", verticalAlign: "top" }}>
                    {row.right || <Typography color="text.secondary">(empty)</Typography>}
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
    </Box>
  );
}
