import Chip from "@mui/material/Chip";
import { useTheme } from "@mui/material/styles";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import type { WatchBoardRow } from "@vigil/contract";
import { clockKindLabels, runningClockStateAt } from "../../../components/clocks/clock-labels";
import { ScrollRegion } from "../../../components/tables/scroll-region";
import { TableBodyStates } from "../../../components/tables/table-body-states";
import { BoardCards } from "./board-cards";
import {
  type BoardTableProps,
  DischargedChip,
  DueWhat,
  ownerText,
  RowAction,
  rowTint,
  TimeLeft,
} from "./board-row-parts";

export { type BoardTableProps, clockActionHref, clockActions } from "./board-row-parts";

const stageLabels: Record<WatchBoardRow["stage"], string> = {
  intake: "Intake",
  monitoring: "Monitoring",
  preview: "Preview",
  reviewed: "Reviewed",
  closed: "Closed",
};

/**
 * The board's rows in the server's order (open critical findings first, then sooner breach first): the remaining
 * time counts down and the state ages on screen by the contract's rule, and each row's action opens the case on the
 * tab where its clock is stopped. Narrower than a tablet, each row is a card (`BoardCards`) instead of a table that
 * would scroll sideways.
 */
export function BoardTable(props: BoardTableProps) {
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down("md"));
  return narrow ? <BoardCards {...props} /> : <WideBoardTable {...props} />;
}

function WideBoardTable({
  label,
  rows,
  now,
  loading,
  error,
  onRetry,
  emptyMessage,
  changed,
  compact,
  rowAction,
}: BoardTableProps) {
  const headers = ["Time left", "What is due", "Patient", ...(compact ? [] : ["Client", "Stage"]), "Owner", "Action"];
  return (
    <ScrollRegion label={label}>
      <Table size="small" aria-label={label} aria-busy={loading ? true : undefined}>
        <TableHead>
          <TableRow>
            {headers.map((header) => (
              <TableCell key={header} sx={{ fontWeight: 600 }}>
                {header}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          <TableBodyStates
            columnKeys={headers}
            loading={loading}
            error={error}
            onRetry={onRetry}
            errorMessage="The board could not be loaded."
            empty={!rows || rows.length === 0}
            emptyMessage={emptyMessage}
          >
            {rows?.map((row) => {
              const state = runningClockStateAt(row.clock, now);
              const justChanged = changed?.has(row.caseId) ?? false;
              const critical = row.clock.kind === "critical-notification";
              return (
                <TableRow
                  key={`${row.caseId}:${row.clock.kind}`}
                  data-state={state}
                  data-critical={critical ? "true" : undefined}
                  sx={rowTint(state, justChanged, critical)}
                >
                  <TableCell>
                    <TimeLeft row={row} state={state} now={now} />
                  </TableCell>
                  <TableCell>
                    <DueWhat row={row} label={clockKindLabels[row.clock.kind]} />
                    {row.otherClocks > 0 ? (
                      <Typography variant="caption" color="text.secondary" component="div">
                        and {row.otherClocks} more running
                      </Typography>
                    ) : null}
                    {justChanged ? <Chip size="small" color="info" label="Just changed" sx={{ mt: 0.5 }} /> : null}
                  </TableCell>
                  <TableCell>
                    {row.patientName ?? "—"}
                    <Typography variant="caption" color="text.secondary" component="div">
                      {row.mrn ? `MRN ${row.mrn} · ` : ""}
                      {row.caseNumber}
                    </Typography>
                    <DischargedChip row={row} />
                  </TableCell>
                  {compact ? null : (
                    <>
                      <TableCell>
                        {row.client.name}
                        <Typography variant="caption" color="text.secondary" component="div">
                          {row.client.code}
                        </Typography>
                      </TableCell>
                      <TableCell>{stageLabels[row.stage]}</TableCell>
                    </>
                  )}
                  <TableCell>{ownerText(row)}</TableCell>
                  <TableCell>
                    <RowAction row={row} state={state} more={rowAction} />
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBodyStates>
        </TableBody>
      </Table>
    </ScrollRegion>
  );
}
