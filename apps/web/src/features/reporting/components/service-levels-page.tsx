import FileDownload from "@mui/icons-material/FileDownload";
import Print from "@mui/icons-material/Print";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import GlobalStyles from "@mui/material/GlobalStyles";
import LinearProgress from "@mui/material/LinearProgress";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { formatInstantInZone, monthSchema, type ServiceLevelReport } from "@vigil/contract";
import { type ReactNode, useEffect } from "react";
import { useClientIds } from "../../../api/list-client-ids";
import { Can } from "../../../components/access/access-context";
import { LoadingScreen } from "../../../components/feedback/loading-screen";
import { isNotFound, QueryError } from "../../../components/feedback/query-error";
import { PageHeading } from "../../../components/layouts/page-heading";
import { downloadText } from "../../../components/tables/csv";
import { useSearchState } from "../../../components/tables/use-search-state";
import { useServiceLevelPeople } from "../api/get-service-level-people";
import { useServiceLevelReport } from "../api/get-service-level-report";
import type { ServiceLevelParams } from "../api/query-keys";
import { sentence, serverQueryProblems } from "../report-period";
import { formatMonth, percentileMethod, serviceLevelCsv, serviceLevelCsvFilename } from "../service-level-format";
import { ReportClientField } from "./report-client-field";
import { ServiceLevelChart } from "./service-level-chart";
import {
  ServiceLevelBreachesTable,
  ServiceLevelCriticalFindingsTable,
  ServiceLevelKindsTable,
  ServiceLevelMissedFindingsTable,
  ServiceLevelPeopleTable,
  ServiceLevelSeriesTable,
} from "./service-level-tables";

/** Per-person figures are for the staff's managers: the permission only administrators hold. */
const peopleAccess = "users:manage";

/** Paper: page margins, table headers repeated on every page, rows and sections never split across pages. */
const printStyles = (
  <GlobalStyles
    styles={{
      "@page": { margin: "15mm" },
      "@media print": {
        "html, body": { background: "#fff !important", color: "#000 !important" },
        thead: { display: "table-header-group" },
        tr: { breakInside: "avoid" },
        "h1, h2": { breakAfter: "avoid" },
        "a[href]": { color: "inherit", textDecoration: "none" },
      },
    }}
  />
);

/**
 * The month the report opens on: the current one by the user's calendar, the month to date, whose promises are
 * the ones still to be kept (clocks still running are judged as of the reading). The month picker goes back.
 */
export function currentMonth(now: Date = new Date()): string {
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}`;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" sx={{ mt: 3, breakInside: "avoid-page" }}>
      <Typography variant="h6" component="h2" gutterBottom>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function PeopleSection({ params }: { params: ServiceLevelParams }) {
  const people = useServiceLevelPeople(params);
  return (
    <Section title="Per person (administrators only)">
      {people.isPending ? <LoadingScreen label="Loading the figures per person…" /> : null}
      {people.isError ? (
        <QueryError what="The figures per person" error={people.error} onRetry={() => void people.refetch()} />
      ) : null}
      {people.data ? <ServiceLevelPeopleTable people={people.data.people} /> : null}
    </Section>
  );
}

function ReportBody({ report, params }: { report: ServiceLevelReport; params: ServiceLevelParams }) {
  const zone = report.timeZone;
  return (
    <Box component="article" aria-label="Service-level report" sx={{ maxWidth: 1200 }}>
      <Typography variant="overline" component="p" color="text.secondary">
        Continuous monitoring · service levels
      </Typography>
      <Typography variant="h5" component="p" sx={{ fontWeight: 600 }}>
        {report.clientName} ({report.clientCode}) · {formatMonth(report.month)}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 0.5 }}>
        Each clock is counted in the month its due time falls in, in the client's time zone ({zone}). Clocks still
        running are judged as of <time dateTime={report.asOf}>{formatInstantInZone(report.asOf, zone)}</time>.
      </Typography>
      <Section title="Promises kept and missed">
        <ServiceLevelKindsTable kinds={report.kinds} />
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {percentileMethod}
        </Typography>
      </Section>
      <Section title="The last 12 months">
        <ServiceLevelChart series={report.series} />
        <Box sx={{ mt: 2 }}>
          <ServiceLevelSeriesTable series={report.series} />
        </Box>
      </Section>
      <Section title="Missed promises">
        <ServiceLevelBreachesTable breaches={report.breaches} timeZone={zone} />
      </Section>
      <Section title="Critical findings">
        <Typography color="text.secondary" sx={{ mb: 1 }}>
          Each finding counted in the month its acknowledgement was due; a cancelled finding owed none. Times to
          acknowledgement run from raising; the onset is the EEG's.
        </Typography>
        <ServiceLevelCriticalFindingsTable findings={report.criticalFindings} />
        <Box sx={{ mt: 2 }}>
          <ServiceLevelMissedFindingsTable missed={report.criticalFindings.missed} timeZone={zone} />
        </Box>
      </Section>
      <Can access={peopleAccess}>
        <PeopleSection params={params} />
      </Can>
    </Box>
  );
}

/**
 * `/reporting/service-levels?client&month`: a client's month of promises (PRODUCT.md §10) — each kind kept and
 * missed with the time taken and lateness, the missed ones by case, the critical findings' acknowledgements
 * (PRODUCT.md §11), the last 12 months as a chart — as CSV and on
 * paper (the menu, pickers and buttons do not print). Administrators also see each person's figures.
 */
export function ServiceLevelsPage() {
  const [search, setSearch] = useSearchState({ client: "", month: currentMonth() });
  // Opened without a client (from the menu), the report shows the first client of the picker's list at once, the
  // only one for most services, rather than an empty page; the link then names it (PRODUCT.md §10).
  const clients = useClientIds();
  const firstClient = clients.data?.[0]?.id;
  useEffect(() => {
    if (!search.client && firstClient) setSearch({ client: firstClient }, { replace: true });
  }, [search.client, firstClient, setSearch]);
  const monthCheck = monthSchema.safeParse(search.month);
  const params: ServiceLevelParams = { clientId: search.client, month: search.month };
  const ready = Boolean(search.client) && monthCheck.success;
  const report = useServiceLevelReport(params, { enabled: ready });
  const serverProblems = report.isError ? serverQueryProblems(report.error) : {};
  const monthProblem = !monthCheck.success
    ? monthCheck.error.issues[0]?.message
    : // The server's 400 names `params.month`, the only field a person types here.
      Object.values(serverProblems)[0];
  const data = ready && !report.isError ? report.data : undefined;

  const body = (() => {
    if (!search.client) {
      // Still loading while the first client is being chosen, so the page does not flash "Choose a client" between
      // the clients' answer and the report's request.
      if (clients.isPending || firstClient) return <LoadingScreen label="Loading the clients…" />;
      return <Alert severity="info">Choose a client to see its month.</Alert>;
    }
    if (!monthCheck.success) return null;
    if (report.isError) {
      if (isNotFound(report.error)) return <Alert severity="error">There is no client with this id.</Alert>;
      if (monthProblem) return null;
      return <QueryError what="The report" error={report.error} onRetry={() => void report.refetch()} />;
    }
    if (!data) return <LoadingScreen label="Loading the service-level report…" />;
    return <ReportBody report={data} params={{ clientId: data.clientId, month: data.month }} />;
  })();

  return (
    <>
      {printStyles}
      <PageHeading>Service levels</PageHeading>
      <Stack
        className="vigil-no-print"
        direction="row"
        sx={{ gap: 2, flexWrap: "wrap", alignItems: "flex-start", mb: 2 }}
      >
        <ReportClientField
          value={search.client}
          onChange={(client) => setSearch({ client })}
          emptyLabel="Choose a client"
          sx={{ minWidth: 260 }}
        />
        <TextField
          label="Month"
          type="month"
          size="small"
          value={search.month}
          onChange={(event) => setSearch({ month: event.target.value }, { replace: true })}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: "1900-01", max: "2200-12" } }}
          error={Boolean(monthProblem)}
          helperText={monthProblem ? sentence(monthProblem) : "YYYY-MM, in the client's time zone"}
          sx={{ width: 220 }}
        />
        <Stack direction="row" sx={{ gap: 2, ml: { md: "auto" }, flexWrap: "wrap" }}>
          <Button
            variant="outlined"
            startIcon={<FileDownload />}
            disabled={!data || report.isPlaceholderData}
            onClick={() => data && downloadText(serviceLevelCsvFilename(data), serviceLevelCsv(data))}
          >
            Export CSV
          </Button>
          <Button variant="contained" startIcon={<Print />} disabled={!data} onClick={() => window.print()}>
            Print / Save as PDF
          </Button>
        </Stack>
      </Stack>
      {report.isFetching && data ? (
        <LinearProgress className="vigil-no-print" aria-label="Updating the report" sx={{ mb: 1 }} />
      ) : null}
      {body}
    </>
  );
}
