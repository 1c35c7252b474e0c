import Box from "@mui/material/Box";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { type BillingNoteData, type BillingNoteItem, type BillingNoteList, cptWarningLabels } from "@vigil/contract";
import type { RecordView } from "../../components/record-view";
import { BillingCheckPanel } from "./billing-check-panel";
import { BillingNoteEditor } from "./billing-note-editor";

type CptLine = BillingNoteData["cptCodes"][number];

export function cptLineText(line: CptLine): string {
  return `${line.code} × ${line.units}${line.modifiers.length ? ` (${line.modifiers.join(", ")})` : ""}`;
}

function BillingNoteBody({ item }: { item: BillingNoteItem }) {
  const { data } = item;
  return (
    <Stack spacing={1}>
      <Typography sx={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>{data.body}</Typography>
      {data.cptCodes.length > 0 ? (
        <Table size="small" aria-label="CPT codes" sx={{ maxWidth: 480 }}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ fontWeight: 600 }}>CPT code</TableCell>
              <TableCell sx={{ fontWeight: 600 }} align="right">
                Units
              </TableCell>
              <TableCell sx={{ fontWeight: 600 }}>Modifiers</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {data.cptCodes.map((line, index) => (
              <TableRow key={`${line.code}-${index}`}>
                <TableCell>{line.code}</TableCell>
                <TableCell align="right">{line.units}</TableCell>
                <TableCell>{line.modifiers.join(", ") || "—"}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : null}
      {data.adjustments ? (
        <Typography variant="body2" sx={{ whiteSpace: "pre-wrap" }}>
          Adjustments: {data.adjustments}
        </Typography>
      ) : null}
      {data.acknowledgedWarnings.length > 0 ? (
        <Box>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            Acknowledged CPT warnings
          </Typography>
          <Box component="ul" aria-label="Acknowledged CPT warnings" sx={{ m: 0, pl: 3 }}>
            {data.acknowledgedWarnings.map((id) => (
              <Typography component="li" variant="body2" key={id}>
                {cptWarningLabels[id]}
              </Typography>
            ))}
          </Box>
        </Box>
      ) : null}
    </Stack>
  );
}

/**
 * Billing notes (reviewed cases, billing staff): the note, CPT code lines with units and modifiers, adjustments
 * and the CPT warnings it acknowledges; the case's billing check above them.
 */
export const billingNoteView: RecordView<BillingNoteItem, BillingNoteData, BillingNoteList> = {
  kind: "billing-note",
  title: "Billing notes",
  noun: "billing note",
  emptyText: "No billing notes yet.",
  Editor: BillingNoteEditor,
  ItemBody: BillingNoteBody,
  Summary: BillingCheckPanel,
  flatten: (data) => ({
    Note: data.body,
    "CPT codes": data.cptCodes.map(cptLineText).join("\n"),
    Adjustments: data.adjustments,
    "Acknowledged CPT warnings": (data.acknowledgedWarnings ?? []).map((id) => cptWarningLabels[id]).join("\n"),
  }),
};
