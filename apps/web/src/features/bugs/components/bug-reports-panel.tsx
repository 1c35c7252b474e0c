import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { type BugReportSummary, bugSeverities, bugSeverityLabels, bugStatuses, bugStatusLabels } from "@vigil/contract";
import { Link as RouterLink, useSearchParams } from "react-router";
import { optionsOf, SelectField } from "../../../components/forms/select-field";
import type { CsvColumn } from "../../../components/tables/csv";
import { CsvExportButton } from "../../../components/tables/csv-export-button";
import { SearchField } from "../../../components/tables/search-field";
import { ServerTable, type ServerTableColumn } from "../../../components/tables/server-table";
import { useDebouncedText } from "../../../components/tables/use-debounced-text";
import { oneOf } from "../../../components/tables/use-search-state";
import { tableQueryProps, useTableSearch } from "../../../components/tables/use-table-search";
import type { BugReportListFilters } from "../api/bug-report-keys";
import { fetchBugReports, useBugReports } from "../api/list-bug-reports";
import { formatFiledAt, pageOfUrl, severityWord } from "../bug-report-labels";
import { BugSeverityChip, BugStatusChip } from "./bug-chips";
import { BugReportDetailDialog } from "./bug-report-detail-dialog";

const sortKeys = ["newest", "oldest", "severity", "updated"] as const;
const sortLabels: Record<(typeof sortKeys)[number], string> = {
  newest: "Newest first",
  oldest: "Oldest first",
  severity: "Most severe first",
  updated: "Recently changed first",
};

/** A filter from the URL: one of the known values, or none (a hand-edited URL filters nothing). */
function choiceOf<const T extends string>(value: string, allowed: readonly T[]): T | undefined {
  return (allowed as readonly string[]).includes(value) ? (value as T) : undefined;
}

const csvColumns: CsvColumn<BugReportSummary>[] = [
  { header: "Number", value: (report) => report.number },
  { header: "Title", value: (report) => report.title },
  { header: "Severity", value: (report) => severityWord(report.severity) },
  { header: "Status", value: (report) => bugStatusLabels[report.status] },
  { header: "Reporter", value: (report) => report.reporter.username },
  { header: "Reporter name", value: (report) => report.reporter.name },
  { header: "Page", value: (report) => report.pageUrl },
  { header: "Filed (UTC)", value: (report) => report.createdAt },
  { header: "Updated (UTC)", value: (report) => report.updatedAt },
];

/**
 * The Reports tab of `/bugs`: the server-paged list of bug reports with its filters, sort, page and the open
 * report (`?report=<id>`) all in the URL, so a list or a report can be shared and Back restores it. CSV export
 * walks every page of the same filter.
 */
export function BugReportsPanel() {
  const [params] = useSearchParams();
  const table = useTableSearch({
    status: "",
    severity: "",
    reporter: "",
    search: "",
    sort: "newest",
    page: "0",
    size: "25",
    report: "",
  });
  const { search, setSearch } = table;
  const filters: BugReportListFilters = {
    status: choiceOf(search.status, bugStatuses),
    severity: choiceOf(search.severity, bugSeverities),
    reporter: search.reporter,
    search: search.search,
    sort: oneOf(search.sort, sortKeys, "newest"),
  };
  const reports = useBugReports({ ...filters, ...table.range });
  const [reporterText, setReporterText] = useDebouncedText(search.reporter, (value) =>
    setSearch({ reporter: value, page: null }, { replace: true }),
  );

  /** The list's own address with one report open: a real link (new tab, copy) that keeps the filters. */
  const reportHref = (id: string) => {
    const next = new URLSearchParams(params);
    next.set("report", id);
    return { search: `?${next}` };
  };

  const columns: ServerTableColumn<BugReportSummary>[] = [
    { id: "number", header: "Number", cell: (report) => report.number },
    {
      id: "title",
      header: "Title",
      cell: (report) => (
        <Link component={RouterLink} to={reportHref(report.id)}>
          {report.title}
        </Link>
      ),
    },
    { id: "severity", header: "Severity", cell: (report) => <BugSeverityChip severity={report.severity} /> },
    { id: "status", header: "Status", cell: (report) => <BugStatusChip status={report.status} /> },
    {
      id: "reporter",
      header: "Reporter",
      cell: (report) => (
        <span title={report.reporter.username}>{report.reporter.name ?? report.reporter.username}</span>
      ),
    },
    {
      id: "page",
      header: "Page",
      cell: (report) => (
        <Box
          component="span"
          title={report.pageUrl}
          sx={{
            display: "inline-block",
            maxWidth: 260,
            overflow: "hidden",
            textOverflow: "ellipsis",
            whiteSpace: "nowrap",
          }}
        >
          {pageOfUrl(report.pageUrl)}
        </Box>
      ),
    },
    {
      id: "filed",
      header: "Filed",
      cell: (report) => <time dateTime={report.createdAt}>{formatFiledAt(report.createdAt)}</time>,
    },
  ];

  const filtered = Boolean(filters.status || filters.severity || search.reporter.trim() || search.search.trim());
  return (
    <>
      <Stack direction="row" sx={{ mb: 2, gap: 2, flexWrap: "wrap", alignItems: "center" }}>
        <SearchField
          urlValue={search.search}
          onSettled={(value) => setSearch({ search: value, page: null }, { replace: true })}
          placeholder="Number, title, text or page"
        />
        <SelectField
          label="Status"
          size="small"
          value={filters.status ?? ""}
          onChange={(status) => setSearch({ status, page: null })}
          emptyLabel="Any status"
          options={optionsOf(bugStatuses, bugStatusLabels)}
          sx={{ minWidth: 160 }}
        />
        <SelectField
          label="Severity"
          size="small"
          value={filters.severity ?? ""}
          onChange={(severity) => setSearch({ severity, page: null })}
          emptyLabel="Any severity"
          options={optionsOf(bugSeverities, bugSeverityLabels)}
          sx={{ minWidth: 160 }}
        />
        <TextField
          label="Reporter"
          size="small"
          value={reporterText}
          onChange={(event) => setReporterText(event.target.value)}
          placeholder="Username"
          sx={{ minWidth: 160 }}
        />
        <SelectField
          label="Sort by"
          size="small"
          value={filters.sort}
          onChange={(sort) => setSearch({ sort, page: null })}
          options={optionsOf(sortKeys, sortLabels)}
          sx={{ minWidth: 200 }}
        />
        <Stack direction="row" sx={{ gap: 2, ml: { md: "auto" } }}>
          <CsvExportButton
            noun="bug reports"
            filename={`bug-reports-${new Date().toISOString().slice(0, 10)}.csv`}
            columns={csvColumns}
            fetchPage={({ offset, limit, signal }) => fetchBugReports({ ...filters, offset, limit }, signal)}
            disabled={!reports.data || reports.data.total === 0}
          />
        </Stack>
      </Stack>
      <ServerTable
        label="Bug reports"
        columns={columns}
        rowKey={(report) => report.id}
        {...table.pager}
        {...tableQueryProps(reports)}
        errorMessage="The bug reports could not be loaded."
        emptyMessage={filtered ? "No bug reports match these filters." : "No bug reports yet."}
      />
      <BugReportDetailDialog reportId={search.report || null} onClose={() => setSearch({ report: null })} />
    </>
  );
}
