import ExpandMore from "@mui/icons-material/ExpandMore";
import Accordion from "@mui/material/Accordion";
import AccordionDetails from "@mui/material/AccordionDetails";
import AccordionSummary from "@mui/material/AccordionSummary";
import FormControlLabel from "@mui/material/FormControlLabel";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import { useTheme } from "@mui/material/styles";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import {
  type CaseStage,
  type ClockKind,
  caseStages,
  clockKinds,
  coordinatorsOwner,
  type WatchBoardRow,
} from "@vigil/contract";
import type { ReactNode } from "react";
import { useWatchBoard, type WatchBoardParams } from "../../../api/get-watch-board";
import { useReviewers } from "../../../api/list-reviewers";
import { useTechnologists } from "../../../api/list-technologists";
import { useAccess } from "../../../components/access/access-context";
import { clockKindLabels } from "../../../components/clocks/clock-labels";
import { useNow } from "../../../components/clocks/use-now";
import { ClientFilterField } from "../../../components/forms/filter-fields";
import { SelectField, type SelectOption } from "../../../components/forms/select-field";
import { PageHeading } from "../../../components/layouts/page-heading";
import { TablePager } from "../../../components/tables/table-pager";
import { oneOf } from "../../../components/tables/use-search-state";
import { useTableSearch } from "../../../components/tables/use-table-search";
import { BoardTable } from "./board-table";
import { ownsClocks } from "./owns-clocks";
import { useChangedCases } from "./use-changed-cases";

const stageOptions: SelectOption[] = caseStages
  .filter((stage) => stage !== "closed")
  .map((stage) => ({ value: stage, label: stage.charAt(0).toUpperCase() + stage.slice(1) }));
const kindOptions: SelectOption[] = clockKinds.map((kind) => ({ value: kind, label: clockKindLabels[kind] }));

/** Owner choices: the coordinators (nobody assigned), then every technologist and reviewer by username. */
function ownerOptions(people: readonly { username: string; name: string }[]): SelectOption[] {
  const seen = new Set<string>();
  const options: SelectOption[] = [{ value: coordinatorsOwner, label: "Coordinators (nobody assigned)" }];
  for (const person of people) {
    if (seen.has(person.username)) continue;
    seen.add(person.username);
    options.push({ value: person.username, label: person.name || person.username });
  }
  return options;
}

/**
 * `/watch`: every open case's next-due service clock, sooner breach first (PRODUCT.md §10). Filters and page live
 * in the URL; the server filters and pages. The countdowns and states age every few seconds on screen, and the
 * rows are read again whenever a case changes (the case-event stream), those just changed outlined for a moment.
 */
export type WatchBoardPageProps = {
  /** More per row beside the link that stops its clock: app/ composes other features' actions here. */
  rowAction?: (row: WatchBoardRow) => ReactNode;
};

export function WatchBoardPage({ rowAction }: WatchBoardPageProps = {}) {
  const { groups } = useAccess();
  const table = useTableSearch({ client: "", stage: "", kind: "", owner: "", mine: "", page: "0", size: "25" });
  const { search, setSearch } = table;
  const mayUseMine = ownsClocks(groups);
  const mine = mayUseMine && search.mine === "true";
  const stage = oneOf(search.stage, ["", ...caseStages] as const, "");
  const kind = oneOf(search.kind, ["", ...clockKinds] as const, "");
  const params: WatchBoardParams = {
    clientId: search.client || undefined,
    stage: (stage || undefined) as CaseStage | undefined,
    kind: (kind || undefined) as ClockKind | undefined,
    owner: mine ? undefined : search.owner || undefined,
    mine: mine || undefined,
    ...table.range,
  };
  const board = useWatchBoard(params);
  // Every second: under an hour a countdown shows seconds.
  const now = useNow(1_000);
  const changed = useChangedCases();
  const technologists = useTechnologists();
  const reviewers = useReviewers();
  const anyFilter = Boolean(search.client || stage || kind || search.owner || mine);
  const rows = board.data?.items;
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down("md"));
  const activeFilters = [search.client, stage, kind, search.owner, mine].filter(Boolean).length;
  const overdue = rows?.filter((row) => Date.parse(row.clock.dueAt) < now).length ?? 0;

  const filters = (
    <Stack
      component="form"
      aria-label="Board filters"
      direction={narrow ? "column" : "row"}
      sx={{ mb: narrow ? 0 : 2, gap: 2, flexWrap: "wrap", alignItems: narrow ? "stretch" : "center" }}
      onSubmit={(event) => event.preventDefault()}
    >
      <ClientFilterField
        value={search.client}
        onChange={(client) => setSearch({ client, page: null })}
        sx={{ minWidth: narrow ? undefined : 200 }}
      />
      <SelectField
        label="Stage"
        size="small"
        value={stage}
        onChange={(value) => setSearch({ stage: value, page: null })}
        emptyLabel="Any stage"
        options={stageOptions}
        sx={{ minWidth: narrow ? undefined : 150 }}
      />
      <SelectField
        label="What is due"
        size="small"
        value={kind}
        onChange={(value) => setSearch({ kind: value, page: null })}
        emptyLabel="The next of each case"
        options={kindOptions}
        sx={{ minWidth: narrow ? undefined : 240 }}
      />
      <SelectField
        label="Owner"
        size="small"
        value={mine ? "" : search.owner}
        onChange={(owner) => setSearch({ owner, page: null })}
        emptyLabel="Anyone"
        options={ownerOptions([...(technologists.data ?? []), ...(reviewers.data ?? [])])}
        disabled={mine}
        sx={{ minWidth: narrow ? undefined : 220 }}
      />
      {mayUseMine ? (
        <FormControlLabel
          control={
            <Switch
              checked={mine}
              onChange={(event) => setSearch({ mine: event.target.checked ? "true" : null, page: null })}
            />
          }
          label="Mine"
        />
      ) : null}
    </Stack>
  );

  return (
    <>
      <PageHeading>Watch board</PageHeading>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Every open case's next promise to its client, open critical findings first, then the soonest to break. The board
        updates by itself.
      </Typography>
      {narrow ? (
        // On a phone the filters fold away, so the first screen shows the rows (PRODUCT.md §10).
        <Accordion disableGutters variant="outlined" sx={{ mb: 2 }}>
          <AccordionSummary expandIcon={<ExpandMore />} aria-controls="board-filters" id="board-filters-summary">
            <Typography>{activeFilters > 0 ? `Filters (${activeFilters} set)` : "Filters"}</Typography>
          </AccordionSummary>
          <AccordionDetails id="board-filters">{filters}</AccordionDetails>
        </Accordion>
      ) : (
        filters
      )}
      <Typography role="status" variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {board.data
          ? `${board.data.total} ${board.data.total === 1 ? "clock" : "clocks"} running${
              overdue > 0 ? `; ${overdue} overdue on this page` : ""
            }.`
          : ""}
      </Typography>
      <Paper variant="outlined">
        <BoardTable
          label="Watch board"
          rows={rows}
          now={now}
          loading={board.isPending}
          error={board.error}
          onRetry={() => void board.refetch()}
          changed={changed}
          rowAction={rowAction}
          emptyMessage={anyFilter ? "No running clock matches these filters." : "No open case has a clock running."}
        />
        <TablePager
          count={board.data?.total ?? 0}
          page={table.pager.page}
          rowsPerPage={table.pager.pageSize}
          rowsPerPageOptions={table.pager.pageSizeOptions}
          onPageChange={(_event, next) => table.pager.onPageChange(next)}
          onRowsPerPageChange={(event) => table.pager.onPageSizeChange(Number(event.target.value))}
        />
      </Paper>
    </>
  );
}
