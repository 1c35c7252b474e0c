import PriorityHigh from "@mui/icons-material/PriorityHigh";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import { alpha, type Theme } from "@mui/material/styles";
import Typography from "@mui/material/Typography";
import {
  type Access,
  type CaseTab,
  type ClockKind,
  type ClockState,
  clockKindDefinitions,
  clockKinds,
  pages,
  type WatchBoardRow,
} from "@vigil/contract";
import type { ReactNode } from "react";
import { Link as RouterLink } from "react-router";
import { useAccess } from "../../../components/access/access-context";
import { clockStateColors, clockStateLabels } from "../../../components/clocks/clock-labels";
import { countdownText } from "../../../components/clocks/format-duration";
import { ZonedDateTime } from "../../../components/dates/zoned-date-time";

/**
 * The step that stops each clock, the case tab where it is taken (PRODUCT.md §10), and the permission taking it
 * needs, from the contract's one definition per kind: the board offers the step only to those who may take it, the
 * others a plain way to the case.
 */
export const clockActions: Record<ClockKind, { label: string; tab: CaseTab; access: Access }> = Object.fromEntries(
  clockKinds.map((kind) => [kind, clockKindDefinitions[kind].step]),
) as Record<ClockKind, { label: string; tab: CaseTab; access: Access }>;

/** Where the row's action leads: the case page of its stage, on the tab where its clock is stopped. */
export function clockActionHref(row: Pick<WatchBoardRow, "caseId" | "stage" | "clock">): string {
  return pages[`case-${row.stage}-detail` as const].href({ caseId: row.caseId, tab: clockActions[row.clock.kind].tab });
}

/**
 * Due soon and overdue rows stand out by a tint as well as by their chip's words; an open critical finding by a bar
 * at its start besides its own words.
 */
export function rowTint(state: ClockState, changed: boolean, critical: boolean) {
  return (theme: Theme) => ({
    backgroundColor:
      state === "overdue"
        ? alpha(theme.palette.error.main, 0.08)
        : state === "due-soon"
          ? alpha(theme.palette.warning.main, 0.1)
          : undefined,
    boxShadow: critical ? `inset 4px 0 0 ${theme.palette.error.main}` : undefined,
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

export function ownerText(row: WatchBoardRow): string {
  const { owner } = row.clock;
  return owner.kind === "user" ? owner.user.name || owner.user.username : "Coordinators";
}

/** An open critical finding leads the board (PRODUCT.md §11) and says so in words, not by its place alone. */
export function CriticalFindingMark() {
  return <Chip size="small" color="error" icon={<PriorityHigh />} label="Critical finding: leads the board" />;
}

/** What is due, marked when it is a critical finding or a STAT case's. */
export function DueWhat({ row, label }: { row: WatchBoardRow; label: string }) {
  return (
    <>
      {row.clock.kind === "critical-notification" ? (
        <>
          <CriticalFindingMark />
          <Typography component="div" sx={{ fontWeight: 600, mt: 0.5 }}>
            {label}
          </Typography>
        </>
      ) : (
        label
      )}
      {row.priority === "stat" && row.clock.kind !== "stat-acknowledgement" ? (
        <Chip size="small" color="error" variant="outlined" label="STAT" sx={{ ml: 1 }} />
      ) : null}
    </>
  );
}

/** The state in words, the countdown (to the second under an hour) and when it is due in the client's zone. */
export function TimeLeft({ row, state, now }: { row: WatchBoardRow; state: ClockState; now: number }) {
  return (
    <Stack spacing={0.5} sx={{ alignItems: "flex-start" }}>
      <Chip
        size="small"
        variant={state === "ok" ? "outlined" : "filled"}
        color={clockStateColors[state]}
        label={clockStateLabels[state]}
      />
      <Typography variant="body2" sx={{ fontWeight: state === "ok" ? undefined : 600 }}>
        {countdownText(row.clock.dueAt, now)}
      </Typography>
      <Typography variant="caption" color="text.secondary">
        due <ZonedDateTime value={row.clock.dueAt} timeZone={row.client.timezone} />
      </Typography>
    </Stack>
  );
}

/**
 * The row's one action: the step that stops its clock for whoever may take it; for the others (a coordinator on a
 * STAT case, billing) a way to the case, never a button that could only answer 403.
 */
export function RowAction({
  row,
  state,
  more,
}: {
  row: WatchBoardRow;
  state: ClockState;
  more?: (row: WatchBoardRow) => ReactNode;
}) {
  const { can } = useAccess();
  const action = clockActions[row.clock.kind];
  const allowed = can(action.access);
  return (
    <Stack direction="row" sx={{ gap: 1, alignItems: "center", flexWrap: "wrap" }}>
      {allowed ? (
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
      ) : (
        <Button
          component={RouterLink}
          to={pages[`case-${row.stage}-detail` as const].href({ caseId: row.caseId, tab: "overview" })}
          size="small"
          variant="text"
          aria-label={`Open case ${row.caseNumber}`}
          sx={{ whiteSpace: "nowrap" }}
        >
          Open case
        </Button>
      )}
      {more?.(row)}
    </Stack>
  );
}

/** The hospital discharged the patient (ADT^A03): monitoring may no longer be wanted; a person decides. */
export function DischargedChip({ row }: { row: Pick<WatchBoardRow, "dischargedAt"> }) {
  if (!row.dischargedAt) return null;
  return <Chip size="small" color="warning" label="Patient discharged — end monitoring?" sx={{ mt: 0.5 }} />;
}
