import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Paper from "@mui/material/Paper";
import Skeleton from "@mui/material/Skeleton";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { clockKindLabels, runningClockStateAt } from "../../../components/clocks/clock-labels";
import {
  type BoardTableProps,
  DischargedChip,
  DueWhat,
  ownerText,
  RowAction,
  rowTint,
  TimeLeft,
} from "./board-row-parts";

/**
 * The board on a phone (narrower than a tablet): a list with one card per row, in the board's order, each with what
 * is due, the time left, the patient and the row's one action, then whose step it is and the client in small print.
 * Nothing runs past the screen's edge, where a table's patient, client and action columns would.
 */
export function BoardCards({
  label,
  rows,
  now,
  loading,
  error,
  onRetry,
  emptyMessage,
  changed,
  rowAction,
}: BoardTableProps) {
  if (loading) {
    return (
      <Stack spacing={1} sx={{ p: 1 }} aria-busy="true" aria-label={label}>
        {[0, 1, 2].map((index) => (
          <Skeleton key={index} variant="rounded" height={96} />
        ))}
      </Stack>
    );
  }
  if (error) {
    return (
      <Alert
        severity="error"
        sx={{ m: 1 }}
        action={
          onRetry ? (
            <Button color="inherit" size="small" onClick={onRetry}>
              Try again
            </Button>
          ) : undefined
        }
      >
        The board could not be loaded.
      </Alert>
    );
  }
  if (!rows || rows.length === 0) {
    return <Typography sx={{ py: 3, px: 2, textAlign: "center", color: "text.secondary" }}>{emptyMessage}</Typography>;
  }
  return (
    <Box component="ul" aria-label={label} sx={{ listStyle: "none", m: 0, p: 1, display: "grid", gap: 1 }}>
      {rows.map((row) => {
        const state = runningClockStateAt(row.clock, now);
        const justChanged = changed?.has(row.caseId) ?? false;
        const critical = row.clock.kind === "critical-notification";
        return (
          <Paper
            component="li"
            variant="outlined"
            key={`${row.caseId}:${row.clock.kind}`}
            data-state={state}
            data-critical={critical ? "true" : undefined}
            aria-label={`${clockKindLabels[row.clock.kind]}: ${row.caseNumber}`}
            sx={[{ p: 1.5, minWidth: 0 }, rowTint(state, justChanged, critical)]}
          >
            <Box sx={{ mb: 1 }}>
              <DueWhat row={row} label={clockKindLabels[row.clock.kind]} />
              {justChanged ? <Chip size="small" color="info" label="Just changed" sx={{ ml: 1 }} /> : null}
            </Box>
            <TimeLeft row={row} state={state} now={now} />
            <Typography sx={{ mt: 1, overflowWrap: "anywhere" }}>{row.patientName ?? "—"}</Typography>
            <Typography variant="caption" color="text.secondary" component="div" sx={{ overflowWrap: "anywhere" }}>
              {row.mrn ? `MRN ${row.mrn} · ` : ""}
              {row.caseNumber} · {row.client.code} · {ownerText(row)}
              {row.otherClocks > 0 ? ` · and ${row.otherClocks} more running` : ""}
            </Typography>
            <DischargedChip row={row} />
            <Box sx={{ mt: 1 }}>
              <RowAction row={row} state={state} more={rowAction} />
            </Box>
          </Paper>
        );
      })}
    </Box>
  );
}
