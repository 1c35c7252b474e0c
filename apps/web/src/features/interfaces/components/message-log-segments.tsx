import Box from "@mui/material/Box";
import FormControlLabel from "@mui/material/FormControlLabel";
import Switch from "@mui/material/Switch";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import type { Hl7MessageDetail } from "@vigil/contract";
import { useState } from "react";
import { ScrollRegion } from "../../../components/tables/scroll-region";

type Segment = Hl7MessageDetail["segments"][number];
type FieldRow = { key: string; segment: string; field: string; value: string; first: boolean };

/** "OBX (2)" for the second OBX of a message; a segment that appears once is named alone. */
function segmentLabels(segments: readonly Segment[]): string[] {
  const totals = new Map<string, number>();
  for (const segment of segments) totals.set(segment.name, (totals.get(segment.name) ?? 0) + 1);
  const seen = new Map<string, number>();
  return segments.map((segment) => {
    const ordinal = (seen.get(segment.name) ?? 0) + 1;
    seen.set(segment.name, ordinal);
    return (totals.get(segment.name) ?? 1) > 1 ? `${segment.name} (${ordinal})` : segment.name;
  });
}

/** Each field as a row: "PID-5" and its value as sent; empty fields only when asked for. */
export function fieldRows(segments: readonly Segment[], withEmpty: boolean): FieldRow[] {
  const labels = segmentLabels(segments);
  return segments.flatMap((segment, index) => {
    const rows = segment.fields
      .map((value, field) => ({ value, field: field + 1 }))
      .filter(({ value }) => withEmpty || value !== "")
      .map(({ value, field }) => ({
        key: `${index}-${field}`,
        segment: labels[index] ?? segment.name,
        field: `${segment.name}-${field}`,
        value,
        first: false,
      }));
    const [head] = rows;
    if (head) head.first = true;
    return rows;
  });
}

/**
 * The message's segments and fields as a table: segment, field number (PID-5), value as sent. An embedded document
 * arrives already shortened by the server ("[PDF, 123,456 bytes base64]").
 */
export function MessageLogSegments({ segments }: { segments: Hl7MessageDetail["segments"] }) {
  const [withEmpty, setWithEmpty] = useState(false);
  const rows = fieldRows(segments, withEmpty);
  return (
    <>
      <FormControlLabel
        control={<Switch checked={withEmpty} onChange={(event) => setWithEmpty(event.target.checked)} />}
        label="Show empty fields"
      />
      <ScrollRegion label="Segments and fields">
        <Table size="small" aria-label="Segments and fields">
          <TableHead>
            <TableRow>
              <TableCell>Segment</TableCell>
              <TableCell>Field</TableCell>
              <TableCell>Value</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.key} sx={row.first ? { "& td": { borderTop: 2, borderTopColor: "divider" } } : {}}>
                <TableCell sx={{ whiteSpace: "nowrap", fontWeight: row.first ? 600 : undefined }}>
                  {row.first ? (
                    row.segment
                  ) : (
                    <Box component="span" sx={{ color: "text.secondary" }}>
                      {row.segment}
                    </Box>
                  )}
                </TableCell>
                <TableCell sx={{ whiteSpace: "nowrap", fontFamily: "monospace" }}>{row.field}</TableCell>
                <TableCell sx={{ fontFamily: "monospace", wordBreak: "break-all" }}>{row.value}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </ScrollRegion>
    </>
  );
}
