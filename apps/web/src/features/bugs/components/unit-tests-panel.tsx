import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import FormControlLabel from "@mui/material/FormControlLabel";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import Typography from "@mui/material/Typography";
import { testStatuses, testSuites, type UnitTest } from "@vigil/contract";
import { QueryError } from "../../../components/feedback/query-error";
import { optionsOf, SelectField } from "../../../components/forms/select-field";
import type { CsvColumn } from "../../../components/tables/csv";
import { CsvExportButton } from "../../../components/tables/csv-export-button";
import { SearchField } from "../../../components/tables/search-field";
import { ServerTable, type ServerTableColumn } from "../../../components/tables/server-table";
import { useSearchState, wholeNumber } from "../../../components/tables/use-search-state";
import { countOf } from "../../../lib/count-of";
import { fetchUnitTests, useUnitTests } from "../api/list-unit-tests";
import { UnitTestRunSummary } from "./unit-test-run-summary";
import { formatTestDuration, testStatusLabels, testSuiteLabels, UnitTestStatusLabel } from "./unit-test-status";

const pageSizes = [25, 50, 100, 200];
const defaultPageSize = 50;

/** The URL parameters of this tab: prefixed, so they never clash with the reports tab's on the same page. */
const urlDefaults = { testSuite: "", testStatus: "", testSearch: "", testPage: "0", testSize: String(defaultPageSize) };

type Row = UnitTest & { key: string };

const csvColumns: CsvColumn<UnitTest>[] = [
  { header: "Suite", value: (test) => testSuiteLabels[test.suite] },
  { header: "File", value: (test) => test.file },
  { header: "Test", value: (test) => test.name },
  { header: "Status", value: (test) => testStatusLabels[test.status] },
  { header: "Duration (ms)", value: (test) => (test.durationMs === null ? null : Math.round(test.durationMs)) },
  { header: "First failure line", value: (test) => test.failure },
];

const columns: ServerTableColumn<Row>[] = [
  { id: "suite", header: "Suite", cell: (test) => testSuiteLabels[test.suite] },
  {
    id: "file",
    header: "File",
    cell: (test) => (
      <Box component="span" sx={{ fontFamily: "monospace", fontSize: "0.8125rem", wordBreak: "break-all" }}>
        {test.file}
      </Box>
    ),
  },
  { id: "name", header: "Test", cell: (test) => test.name },
  { id: "status", header: "Status", cell: (test) => <UnitTestStatusLabel status={test.status} /> },
  {
    id: "duration",
    header: "Duration",
    align: "right",
    cell: (test) => <Box sx={{ whiteSpace: "nowrap" }}>{formatTestDuration(test.durationMs)}</Box>,
  },
  {
    id: "failure",
    header: "First failure line",
    cell: (test) =>
      test.failure ? (
        <Box
          component="span"
          sx={{ color: "error.main", fontFamily: "monospace", fontSize: "0.8125rem", wordBreak: "break-word" }}
        >
          {test.failure}
        </Box>
      ) : null,
  },
];

/** A URL value among known choices, or no filter (a hand-edited URL, or "all"). */
function knownOrUndefined<const T extends string>(value: string, allowed: readonly T[]): T | undefined {
  return (allowed as readonly string[]).includes(value) ? (value as T) : undefined;
}

/**
 * The "Unit tests" tab of `/bugs`: the product's own test catalogue with the results of its last run, as the
 * build wrote it (read-only). Totals first, then a server-paged table filtered by suite, status and words; the
 * filters live in the URL under `test*` names, and CSV export walks every page of the same filter.
 */
export function UnitTestsPanel() {
  const [url, setUrl] = useSearchState(urlDefaults);
  const suite = knownOrUndefined(url.testSuite, testSuites);
  const status = knownOrUndefined(url.testStatus, testStatuses);
  const pageSize = pageSizes.includes(Number(url.testSize)) ? Number(url.testSize) : defaultPageSize;
  const page = wholeNumber(url.testPage, 0);
  const filters = { suite, status, search: url.testSearch };
  const tests = useUnitTests({ ...filters, limit: pageSize, offset: page * pageSize });

  if (tests.isPending) {
    return (
      <Stack direction="row" role="status" sx={{ gap: 1.5, alignItems: "center", py: 3 }}>
        <CircularProgress size={20} aria-hidden="true" />
        <Typography>Loading the test results…</Typography>
      </Stack>
    );
  }
  if (tests.isError && !tests.data) {
    return <QueryError what="The test results" error={tests.error} onRetry={() => void tests.refetch()} />;
  }
  const data = tests.data;
  if (!data.available) {
    return (
      <Alert severity="info">
        <AlertTitle>No test results here yet</AlertTitle>
        The catalogue is written by the last <code>npm test</code> run: run <code>npm test</code> at the repository's
        root on the machine or build that serves this app (CI does it on every build) and the results show here.
      </Alert>
    );
  }

  const filtered = Boolean(suite || status || url.testSearch.trim());
  const rows: Row[] = data.items.map((test, index) => ({
    ...test,
    key: `${data.offset + index}:${test.file}:${test.name}`,
  }));
  const { matching, totals } = data;
  const trimmedSearch = url.testSearch.trim();
  const emptyMessage = filtered
    ? trimmedSearch
      ? `No tests match “${trimmedSearch}” with these filters.`
      : "No tests match these filters."
    : "The last run recorded no tests.";

  return (
    <Box>
      {totals.failed > 0 && status !== "failed" ? (
        <Alert
          severity="error"
          sx={{ mb: 2 }}
          action={
            <Button color="inherit" size="small" onClick={() => setUrl({ testStatus: "failed", testPage: null })}>
              Show them
            </Button>
          }
        >
          {countOf(totals.failed, "test")} failed in the last run.
        </Alert>
      ) : null}
      <UnitTestRunSummary page={data} />

      <Stack
        direction="row"
        role="search"
        aria-label="Filter tests"
        sx={{ mb: 1, gap: 2, flexWrap: "wrap", alignItems: "center" }}
      >
        <SearchField
          urlValue={url.testSearch}
          onSettled={(value) => setUrl({ testSearch: value, testPage: null }, { replace: true })}
          placeholder="File or test name"
          label="Search tests"
          minWidth={260}
        />
        <SelectField
          label="Suite"
          size="small"
          value={suite ?? ""}
          onChange={(value) => setUrl({ testSuite: value, testPage: null })}
          emptyLabel="All suites"
          options={optionsOf(testSuites, testSuiteLabels)}
          sx={{ minWidth: 160 }}
        />
        <SelectField
          label="Status"
          size="small"
          value={status ?? ""}
          onChange={(value) => setUrl({ testStatus: value, testPage: null })}
          emptyLabel="Any status"
          options={optionsOf(testStatuses, testStatusLabels)}
          sx={{ minWidth: 150 }}
        />
        <FormControlLabel
          control={
            <Switch
              checked={status === "failed"}
              onChange={(event) => setUrl({ testStatus: event.target.checked ? "failed" : null, testPage: null })}
            />
          }
          label="Show failed only"
        />
        {filtered ? (
          <Button onClick={() => setUrl({ testSuite: null, testStatus: null, testSearch: null, testPage: null })}>
            Clear filters
          </Button>
        ) : null}
        <Box sx={{ ml: { md: "auto" } }}>
          <CsvExportButton
            noun="tests"
            filename={`unit-tests-${suite ?? "all-suites"}-${status ?? "any-status"}-${new Date().toISOString().slice(0, 10)}.csv`}
            columns={csvColumns}
            fetchPage={({ offset, limit, signal }) => fetchUnitTests({ ...filters, offset, limit }, signal)}
            disabled={data.total === 0}
          />
        </Box>
      </Stack>
      {filtered ? (
        <Typography color="text.secondary" sx={{ mb: 1 }}>
          {matching.total} of {countOf(totals.total, "test")} match: {matching.passed} passed, {matching.failed} failed,{" "}
          {matching.skipped} skipped.
        </Typography>
      ) : null}
      <ServerTable
        label="Tests of the last run"
        columns={columns}
        rows={rows}
        rowKey={(row) => row.key}
        total={data.total}
        page={page}
        pageSize={pageSize}
        pageSizeOptions={pageSizes}
        onPageChange={(next) => setUrl({ testPage: next })}
        onPageSizeChange={(size) => setUrl({ testSize: size, testPage: null })}
        loading={false}
        fetching={tests.isFetching}
        error={tests.isError ? tests.error : undefined}
        onRetry={() => void tests.refetch()}
        errorMessage="The test results could not be loaded."
        emptyMessage={emptyMessage}
      />
    </Box>
  );
}
