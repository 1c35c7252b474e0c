import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import { alpha, type Theme } from "@mui/material/styles";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { type CaseTab, type ClockKind, type ClockState, pages, type WatchBoardRow } from "@vigil/contract";
import type { ReactNode } from "react";
import { Link as RouterLink } from "react-router";
import {
  clockKindLabels,
  clockStateColors,
  clockStateLabels,
  runningClockStateAt,
  timeLeftText,
} from "../../../components/clocks/clock-labels";
import { ZonedDateTime } from "../../../components/dates/zoned-date-time";
import { ScrollRegion } from "../../../components/tables/scroll-region";
import { TableBodyStates } from "../../../components/tables/table-body-states";

/** The step that stops each clock, and the case tab where it is taken (PRODUCT.md §10). */
export const clockActions: Record<ClockKind, { label: string; tab: CaseTab }> = {
  // "Acknowledge (take this STAT case)" is on the case overview.
  "stat-acknowledgement": { label: "Acknowledge", tab: "overview" },
  "impedance-check": { label: "Record impedance check", tab: "impedances" },
  // The documented review of intermittent monitoring is a review-check event.
  "intermittent-review": { label: "Record review check", tab: "events" },
  "review-turnaround": { label: "Review", tab: "interpretations" },
  // The findings panel (who was told, each delivery, "Record phone acknowledgement") is on the case overview.
  "critical-notification": { label: "Record acknowledgement", tab: "overview" },
};

/** Where the row's action leads: the case page of its stage, on the tab where its clock is stopped. */
export function clockActionHref(row: Pick<WatchBoardRow, "caseId" | "stage" | "clock">): string {
  return pages[`case-${row.stage}-detail` as const].href({ caseId: row.caseId, tab: clockActions[row.clock.kind].tab });
}

const stageLabels: Record<WatchBoardRow["stage"], string> = {
  intake: "Intake",
  monitoring: "Monitoring",
  preview: "Preview",
  reviewed: "Reviewed",
  closed: "Closed",
};

function ownerText(row: WatchBoardRow): string {
  const { owner } = row.clock;
  return owner.kind === "user" ? owner.user.name || owner.user.username : "Coordinators";
}

/** Due soon and overdue rows stand out by a tint as well as by their chip's words. */
function rowTint(state: ClockState, changed: boolean) {
  return (theme: Theme) => ({
    backgroundColor:
      state === "overdue"
        ? alpha(theme.palette.error.main, 0.08)
        : state === "due-soon"
          ? alpha(theme.palette.warning.main, 0.1)
          : undefined,
    outline: changed ? `2px solid ${theme.palette.info.main}` : undefined,
    outlineOffset: -2,
    transition: "outline-color 0.3s",
  });
}

export type BoardTableProps = {
  label: string;
  rows: readonly WatchBoardRow[] | undefined;
  /** The time the countdowns and states are aged to (renewed by the screen). */
  now: number;
  loading: boolean;
  error?: unknown;
  onRetry?: () => void;
  emptyMessage: ReactNode;
  /** Cases changed by someone a moment ago: their rows are outlined and say so. */
  changed?: ReadonlySet<string>;
  /** The home page's short version: no stage and client columns. */
  compact?: boolean;
  /** More for each row's action cell, after the link that stops its clock (the screen composing the board fills it). */
  rowAction?: (row: WatchBoardRow) => ReactNode;
};

/**
 * The board's rows, sooner breach first: the remaining time counts down and the state ages on screen by the
 * contract's rule, and each row's action opens the case on the tab where its clock is stopped.
 */
export function BoardTable({
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
              const action = clockActions[row.clock.kind];
              return (
                <TableRow key={`${row.caseId}:${row.clock.kind}`} data-state={state} sx={rowTint(state, justChanged)}>
                  <TableCell>
                    <Stack spacing={0.5} sx={{ alignItems: "flex-start" }}>
                      <Chip
                        size="small"
                        variant={state === "ok" ? "outlined" : "filled"}
                        color={clockStateColors[state]}
                        label={clockStateLabels[state]}
                      />
                      <Typography variant="body2" sx={{ fontWeight: state === "ok" ? undefined : 600 }}>
                        {timeLeftText(row.clock.dueAt, now)}
                      </Typography>
                      <Typography variant="caption" color="text.secondary">
                        due <ZonedDateTime value={row.clock.dueAt} timeZone={row.client.timezone} />
                      </Typography>
                    </Stack>
                  </TableCell>
                  <TableCell>
                    {clockKindLabels[row.clock.kind]}
                    {row.priority === "stat" && row.clock.kind !== "stat-acknowledgement" ? (
                      <Chip size="small" color="error" variant="outlined" label="STAT" sx={{ ml: 1 }} />
                    ) : null}
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
                    <Stack direction="row" sx={{ gap: 1, alignItems: "center", flexWrap: "wrap" }}>
                      <Button
                        component={RouterLink}
                        to={clockActionHref(row)}
                        size="small"
                        variant={state === "ok" ? "outlined" : "contained"}
                        aria-label={`${action.label}: ${row.caseNumber}`}
                        sx={{ whiteSpace: "nowrap" }}
                      >
                        {action.label}
                      </Button>
                      {rowAction?.(row)}
                    </Stack>
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
