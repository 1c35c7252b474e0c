import FileDownload from "@mui/icons-material/FileDownload";
import Print from "@mui/icons-material/Print";
import Timer from "@mui/icons-material/Timer";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import FormControl from "@mui/material/FormControl";
import FormHelperText from "@mui/material/FormHelperText";
import FormLabel from "@mui/material/FormLabel";
import LinearProgress from "@mui/material/LinearProgress";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import ToggleButton from "@mui/material/ToggleButton";
import ToggleButtonGroup from "@mui/material/ToggleButtonGroup";
import Typography from "@mui/material/Typography";
import { type BillableHoursReport, pages, reportGroupings } from "@vigil/contract";
import { useId } from "react";
import { Link as RouterLink } from "react-router";
import { type ClientOption, useClientIds } from "../../../api/list-client-ids";
import { useTechnologists } from "../../../api/list-technologists";
import { LoadingScreen } from "../../../components/feedback/loading-screen";
import { QueryError } from "../../../components/feedback/query-error";
import { SelectField } from "../../../components/forms/select-field";
import { PageHeading } from "../../../components/layouts/page-heading";
import { downloadText } from "../../../components/tables/csv";
import { oneOf, useSearchState } from "../../../components/tables/use-search-state";
import { useBillableHoursReport } from "../api/get-billable-hours-report";
import type { BillableHoursParams } from "../api/query-keys";
import { reportCsv, reportCsvFilename } from "../report-csv";
import { formatPeriod, groupingLabels } from "../report-labels";
import { checkReportQuery, currentMonthToDate, sentence, serverQueryProblems } from "../report-period";
import { BillableHoursChart } from "./billable-hours-chart";
import { BillableHoursTable } from "./billable-hours-table";
import { ReportClientField } from "./report-client-field";

export const defaultGrouping = "day";

/** The query fields that have a control here: their messages show beside it. */
const filterFields = new Set(["from", "to", "clientId", "technologist", "groupBy"]);

function clientWords(option: ClientOption | undefined, clientId: string): string {
  return option ? `${option.name} (${option.code})` : `Client ${clientId}`;
}

/**
 * `/reporting/continuous-monitoring`: billable hours for a period (the current month to date unless the URL says
 * otherwise), by day, week, month, client or technologist, as a chart and a table with its totals. Every filter
 * is in the URL. The filters are checked with the contract's own query schema before anything is asked, and a
 * 400 from the server shows beside its field too. The CSV is the table on screen, with the filters named.
 */
export function BillableHoursOverviewPage() {
  const period = currentMonthToDate();
  const [search, setSearch] = useSearchState({
    from: period.from,
    to: period.to,
    client: "",
    technologist: "",
    groupBy: defaultGrouping,
  });
  const groupBy = oneOf(search.groupBy, reportGroupings, defaultGrouping);
  const params: BillableHoursParams = {
    from: search.from,
    to: search.to,
    groupBy,
    ...(search.client ? { clientId: search.client } : {}),
    ...(search.technologist ? { technologist: search.technologist } : {}),
  };
  const localProblems = checkReportQuery(params);
  const valid = Object.keys(localProblems).length === 0;
  const report = useBillableHoursReport(params, { enabled: valid });
  const clients = useClientIds();
  const technologists = useTechnologists();
  const groupByLabelId = useId();

  const serverProblems = valid && report.isError ? serverQueryProblems(report.error) : {};
  const problems = valid ? serverProblems : localProblems;
  const refused = Object.keys(serverProblems).length > 0;
  const onFields = Object.keys(problems).some((field) => filterFields.has(field));
  const elsewhere = Object.entries(problems).filter(([field]) => !filterFields.has(field));
  const data = valid && !report.isError ? report.data : undefined;

  const clientOptions = clients.data ?? [];
  const technologistOptions = technologists.data ?? [];
  const selectedTechnologist = technologistOptions.find((option) => option.username === search.technologist);

  const exportCsv = (shown: BillableHoursReport) => {
    const reportClient = shown.clientId
      ? clientWords(
          clientOptions.find((option) => option.id === shown.clientId),
          shown.clientId,
        )
      : "All clients";
    const reportTechnologist = shown.technologist
      ? (() => {
          const option = technologistOptions.find((entry) => entry.username === shown.technologist);
          return option ? `${option.name} (${option.username})` : shown.technologist;
        })()
      : "All technologists";
    downloadText(
      reportCsvFilename(shown),
      reportCsv(shown, { client: reportClient, technologist: reportTechnologist }),
    );
  };

  const fieldProps = (name: string, help?: string) => ({
    error: Boolean(problems[name]),
    helperText: problems[name] ? sentence(problems[name]) : help,
  });

  return (
    <>
      <PageHeading>Billable hours</PageHeading>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Continuous monitoring: the billable time logs of the clients' cases, with each day cut in the client's own time
        zone.
      </Typography>
      <Stack direction="row" sx={{ gap: 2, flexWrap: "wrap", alignItems: "flex-start", mb: 2 }}>
        <TextField
          label="From"
          type="date"
          size="small"
          value={search.from}
          onChange={(event) => setSearch({ from: event.target.value }, { replace: true })}
          slotProps={{ inputLabel: { shrink: true } }}
          {...fieldProps("from", "First day, inclusive")}
          sx={{ width: 200 }}
        />
        <TextField
          label="To"
          type="date"
          size="small"
          value={search.to}
          onChange={(event) => setSearch({ to: event.target.value }, { replace: true })}
          slotProps={{ inputLabel: { shrink: true } }}
          {...fieldProps("to", "Last day, inclusive")}
          sx={{ width: 200 }}
        />
        <ReportClientField
          value={search.client}
          onChange={(client) => setSearch({ client })}
          {...fieldProps("clientId")}
          emptyLabel="All clients"
          sx={{ minWidth: 240 }}
        />
        <SelectField
          label="Technologist"
          size="small"
          value={search.technologist}
          onChange={(technologist) => setSearch({ technologist })}
          {...fieldProps("technologist", technologists.isError ? "The technologists could not be loaded" : undefined)}
          sx={{ minWidth: 220 }}
          emptyLabel="All technologists"
          options={technologistOptions.map((option) => ({ value: option.username, label: option.name }))}
        >
          {search.technologist && !selectedTechnologist ? (
            <option value={search.technologist}>{search.technologist}</option>
          ) : null}
        </SelectField>
      </Stack>
      <Stack direction="row" sx={{ gap: 2, flexWrap: "wrap", alignItems: "center", mb: 2 }}>
        <FormControl error={Boolean(problems.groupBy)}>
          {/* On a phone the label goes above the buttons: beside them the row is wider than the screen. */}
          <Stack
            direction={{ xs: "column", sm: "row" }}
            sx={{ gap: { xs: 0.5, sm: 1.5 }, alignItems: { xs: "flex-start", sm: "center" } }}
          >
            <FormLabel id={groupByLabelId}>Group by</FormLabel>
            <ToggleButtonGroup
              exclusive
              size="small"
              color="primary"
              value={groupBy}
              aria-labelledby={groupByLabelId}
              onChange={(_event, next: string | null) => {
                if (next) setSearch({ groupBy: next });
              }}
            >
              {reportGroupings.map((grouping) => (
                <ToggleButton key={grouping} value={grouping}>
                  {groupingLabels[grouping]}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
          </Stack>
          {problems.groupBy ? <FormHelperText>{sentence(problems.groupBy)}</FormHelperText> : null}
        </FormControl>
        <Stack direction="row" sx={{ gap: 2, ml: { md: "auto" }, flexWrap: "wrap" }}>
          {search.client ? (
            <Button
              component={RouterLink}
              to={pages["reporting-client"].href({ clientId: search.client }, { from: search.from, to: search.to })}
              startIcon={<Print />}
            >
              Printable client report
            </Button>
          ) : null}
          <Button
            component={RouterLink}
            to={pages["reporting-service-levels"].href({}, { client: search.client || undefined })}
            startIcon={<Timer />}
          >
            Service levels
          </Button>
          <Button
            variant="outlined"
            startIcon={<FileDownload />}
            disabled={!data || report.isPlaceholderData}
            onClick={() => data && exportCsv(data)}
          >
            Export CSV
          </Button>
        </Stack>
      </Stack>

      {elsewhere.length > 0 ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          The report was not made:{" "}
          {elsewhere.map(([field, message]) => (field ? `${field} ${message}` : message)).join("; ")}
        </Alert>
      ) : null}
      {onFields ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          Change the filters marked above to see the report.
        </Alert>
      ) : null}
      {valid && report.isError && !refused ? (
        <QueryError what="The report" error={report.error} onRetry={() => void report.refetch()} />
      ) : null}
      {valid && report.isPending ? <LoadingScreen label="Loading the report…" /> : null}
      {report.isFetching && data ? <LinearProgress aria-label="Updating the report" sx={{ mb: 1 }} /> : null}
      {data ? (
        <Stack spacing={2}>
          <Typography variant="h6" component="h2">
            {formatPeriod(data.from, data.to)} by {groupingLabels[data.groupBy].toLowerCase()}: {data.totals.hours}{" "}
            hours
          </Typography>
          {data.rows.length > 0 ? (
            <Paper variant="outlined" sx={{ p: 1 }}>
              <BillableHoursChart report={data} />
            </Paper>
          ) : null}
          <Box>
            <BillableHoursTable report={data} label="Billable hours" />
          </Box>
        </Stack>
      ) : null}
    </>
  );
}
