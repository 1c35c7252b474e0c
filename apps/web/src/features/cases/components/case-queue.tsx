import Add from "@mui/icons-material/Add";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import {
  type CaseListItem,
  type CaseStage,
  caseQueueQuerySchema,
  caseStageOfPath,
  caseStages,
  formatInstantInZone,
  pages,
} from "@vigil/contract";
import { Link as RouterLink, useLocation } from "react-router";
import { useAccess } from "../../../components/access/access-context";
import { NotFoundPage } from "../../../components/errors/not-found-page";
import {
  ClientFilterField,
  ReviewerFilterField,
  TechnologistFilterField,
} from "../../../components/forms/filter-fields";
import { SelectField } from "../../../components/forms/select-field";
import { PageHeading } from "../../../components/layouts/page-heading";
import type { CsvColumn } from "../../../components/tables/csv";
import { CsvExportButton } from "../../../components/tables/csv-export-button";
import { queryProblems, sentence, serverQueryProblems } from "../../../components/tables/query-problems";
import { SearchField } from "../../../components/tables/search-field";
import { ServerTable, type ServerTableColumn } from "../../../components/tables/server-table";
import { oneOf } from "../../../components/tables/use-search-state";
import { tableQueryProps, tableSortOf, useTableSearch } from "../../../components/tables/use-table-search";
import { fetchCaseQueue, useCaseQueue } from "../api/list-case-queue";
import type { CaseQueueParams } from "../api/query-keys";
import { personName, priorityLabels, stageLabel, studyTypeLabels } from "../case-labels";
import { PriorityChip } from "./priority-chip";

const sortKeys = ["priority", "createdAt", "updatedAt", "caseNumber"] as const;
type SortKey = (typeof sortKeys)[number];
const priorityFilterOptions = [
  { value: "stat", label: "STAT" },
  { value: "routine", label: "Routine" },
];

const csvColumns: CsvColumn<CaseListItem>[] = [
  { header: "Case number", value: (row) => row.caseNumber },
  { header: "Priority", value: (row) => priorityLabels[row.priority] },
  { header: "Stage", value: (row) => stageLabel(row.stage) },
  { header: "Client", value: (row) => row.clientName },
  { header: "Client code", value: (row) => row.clientCode },
  { header: "Client time zone", value: (row) => row.clientTimezone },
  { header: "Patient", value: (row) => row.patientName },
  { header: "MRN", value: (row) => row.mrn },
  { header: "Study type", value: (row) => studyTypeLabels[row.studyType] },
  { header: "Video", value: (row) => (row.hasVideo ? "Yes" : "No") },
  { header: "Technologists", value: (row) => row.technologists.map(personName).join("; ") },
  { header: "Reviewer", value: (row) => (row.reviewer ? personName(row.reviewer) : "") },
  { header: "Move pending approval", value: (row) => (row.hasPendingTransition ? "Yes" : "No") },
  // Machine-readable instants in the CSV (ISO 8601, UTC); the screen shows the client's zone.
  { header: "Recording started (UTC)", value: (row) => row.recordingStartedAt },
  { header: "Recording ended (UTC)", value: (row) => row.recordingEndedAt },
  { header: "Created (UTC)", value: (row) => row.createdAt },
  { header: "Updated (UTC)", value: (row) => row.updatedAt },
];

/** A `YYYY-MM-DD` filter → the instant the day starts (from) or ends (to), in the browser's zone. */
function dayBoundary(day: string, end: boolean): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const date = new Date(`${day}T00:00:00`);
  if (Number.isNaN(date.getTime())) return undefined;
  if (end) date.setDate(date.getDate() + 1);
  return new Date(date.getTime() - (end ? 1 : 0)).toISOString();
}

function isStage(value: string | undefined): value is CaseStage {
  return (caseStages as readonly string[]).includes(value ?? "");
}

/**
 * `/continuous-monitoring/cases/{stage}`: a stage's server-paged queue. Filters, sort and page live in the URL;
 * by default STAT cases come first (the server's `priority` order) and carry a chip. CSV exports the filter.
 */
export function CaseQueuePage() {
  const location = useLocation();
  const stage = caseStageOfPath(location.pathname);
  if (!isStage(stage)) return <NotFoundPage path={location.pathname} />;
  return <CaseQueue key={stage} stage={stage} />;
}

function CaseQueue({ stage }: { stage: CaseStage }) {
  const { can } = useAccess();
  const table = useTableSearch({
    search: "",
    client: "",
    priority: "",
    technologist: "",
    reviewer: "",
    from: "",
    to: "",
    sort: "priority",
    order: "asc",
    page: "0",
    size: "25",
  });
  const { search, setSearch } = table;
  const { sort, order, tableSort } = tableSortOf(table, sortKeys, "priority");
  const priority = oneOf(search.priority, ["", "routine", "stat"] as const, "");
  const filters: Omit<CaseQueueParams, "limit" | "offset"> = {
    search: search.search || undefined,
    clientId: search.client || undefined,
    priority: priority || undefined,
    technologistId: search.technologist || undefined,
    reviewerId: search.reviewer || undefined,
    createdFrom: dayBoundary(search.from, false),
    createdTo: dayBoundary(search.to, true),
    sort,
    order,
  };
  // The contract's rules for the filters (the opening dates in order) are checked before anything is asked; what
  // the server refuses anyway shows beside its field the same way.
  const localProblems = queryProblems(caseQueueQuerySchema, filters);
  const valid = Object.keys(localProblems).length === 0;
  const cases = useCaseQueue(stage, { ...filters, ...table.range }, { enabled: valid });
  const problems = valid ? serverQueryProblems(cases.error) : localProblems;
  const dateProps = (field: "createdFrom" | "createdTo") => {
    const problem = problems[field];
    return problem ? { error: true, helperText: sentence(problem) } : {};
  };

  const columns: ServerTableColumn<CaseListItem, SortKey>[] = [
    {
      id: "caseNumber",
      header: "Case",
      sortKey: "caseNumber",
      cell: (row) => (
        <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
          <Link
            component={RouterLink}
            to={pages[`case-${row.stage}-detail` as const].href({ caseId: row.id, tab: "overview" })}
          >
            {row.caseNumber}
          </Link>
          <PriorityChip priority={row.priority} />
          {row.hasPendingTransition ? <Chip size="small" color="warning" label="Pending approval" /> : null}
        </Stack>
      ),
    },
    { id: "priority", header: "Priority", sortKey: "priority", cell: (row) => priorityLabels[row.priority] },
    { id: "patient", header: "Patient", cell: (row) => row.patientName ?? "—" },
    { id: "mrn", header: "MRN", cell: (row) => row.mrn ?? "—" },
    { id: "client", header: "Client", cell: (row) => row.clientName },
    {
      id: "study",
      header: "Study",
      cell: (row) => `${studyTypeLabels[row.studyType]}${row.hasVideo ? " + video" : ""}`,
    },
    {
      id: "technologists",
      header: "Technologists",
      cell: (row) => (row.technologists.length ? row.technologists.map(personName).join(", ") : "—"),
    },
    { id: "reviewer", header: "Reviewer", cell: (row) => personName(row.reviewer) },
    {
      id: "createdAt",
      header: "Opened",
      sortKey: "createdAt",
      cell: (row) => <time dateTime={row.createdAt}>{formatInstantInZone(row.createdAt, row.clientTimezone)}</time>,
    },
  ];

  const anyFilter = Boolean(
    search.search || search.client || priority || search.technologist || search.reviewer || search.from || search.to,
  );
  const title = `${stageLabel(stage)} cases`;
  return (
    <>
      <PageHeading>{title}</PageHeading>
      <Stack direction="row" sx={{ mb: 2, gap: 2, flexWrap: "wrap", alignItems: "center" }}>
        <SearchField
          urlValue={search.search}
          onSettled={(value) => setSearch({ search: value, page: null }, { replace: true })}
          placeholder="Any word of a name, or case-number or MRN digits"
          minWidth={280}
        />
        <ClientFilterField
          value={search.client}
          onChange={(client) => setSearch({ client, page: null })}
          sx={{ minWidth: 200 }}
        />
        <SelectField
          label="Priority"
          size="small"
          value={priority}
          onChange={(value) => setSearch({ priority: value, page: null })}
          emptyLabel="Any"
          options={priorityFilterOptions}
          sx={{ minWidth: 130 }}
        />
        <TechnologistFilterField
          value={search.technologist}
          onChange={(technologist) => setSearch({ technologist, page: null })}
          emptyLabel="Anyone"
          sx={{ minWidth: 180 }}
        />
        <ReviewerFilterField
          value={search.reviewer}
          onChange={(reviewer) => setSearch({ reviewer, page: null })}
          sx={{ minWidth: 180 }}
        />
        <TextField
          label="Opened from"
          type="date"
          size="small"
          value={search.from}
          onChange={(event) => setSearch({ from: event.target.value, page: null })}
          slotProps={{ inputLabel: { shrink: true } }}
          {...dateProps("createdFrom")}
        />
        <TextField
          label="Opened to"
          type="date"
          size="small"
          value={search.to}
          onChange={(event) => setSearch({ to: event.target.value, page: null })}
          slotProps={{ inputLabel: { shrink: true } }}
          {...dateProps("createdTo")}
        />
        <Stack direction="row" sx={{ gap: 2, ml: { md: "auto" } }}>
          <CsvExportButton
            noun="cases"
            filename={`cases-${stage}-${new Date().toISOString().slice(0, 10)}.csv`}
            columns={csvColumns}
            fetchPage={({ offset, limit, signal }) => fetchCaseQueue(stage, { ...filters, offset, limit }, signal)}
            disabled={!cases.data || cases.data.total === 0}
          />
          {can("cases:create") ? (
            <Button component={RouterLink} to={pages["case-create"].href()} variant="contained" startIcon={<Add />}>
              New case
            </Button>
          ) : null}
        </Stack>
      </Stack>
      {sort !== "priority" ? (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          Sorted by {sort === "caseNumber" ? "case number" : sort === "createdAt" ? "opening time" : "last change"}
          {"; STAT cases are still marked."}{" "}
          <Link component="button" onClick={() => setSearch({ sort: null, order: null, page: null })}>
            Show STAT first
          </Link>
        </Typography>
      ) : null}
      <ServerTable
        label={title}
        columns={columns}
        rowKey={(row) => row.id}
        {...table.pager}
        {...tableSort}
        {...tableQueryProps(cases)}
        rows={valid ? cases.data?.items : []}
        total={valid ? (cases.data?.total ?? 0) : 0}
        totalIsEstimate={valid && cases.data?.totalIsEstimate === true}
        loading={valid && cases.isPending}
        error={valid ? cases.error : null}
        errorMessage="The cases could not be loaded."
        emptyMessage={
          !valid
            ? "No cases are shown until the filters marked above are corrected."
            : anyFilter
              ? "No cases match these filters."
              : `No cases in ${stageLabel(stage).toLowerCase()}.`
        }
      />
    </>
  );
}
