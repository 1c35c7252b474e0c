import ArrowBack from "@mui/icons-material/ArrowBack";
import Print from "@mui/icons-material/Print";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import GlobalStyles from "@mui/material/GlobalStyles";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { BillableHoursReport } from "@vigil/contract";
import { formatInstantInZone, pages } from "@vigil/contract";
import { Link as RouterLink, useParams } from "react-router";
import { useClient } from "../../../api/get-client";
import { LoadingScreen } from "../../../components/feedback/loading-screen";
import { isNotFound, QueryError } from "../../../components/feedback/query-error";
import { useSearchState } from "../../../components/tables/use-search-state";
import { countOf } from "../../../lib/count-of";
import { useBillableHoursReport } from "../api/get-billable-hours-report";
import type { BillableHoursParams } from "../api/query-keys";
import { formatPeriod } from "../report-labels";
import {
  checkReportQuery,
  currentMonthToDate,
  type QueryProblems,
  sentence,
  serverQueryProblems,
} from "../report-period";
import { BillableHoursTable } from "./billable-hours-table";

const fieldWords: Record<string, string> = { from: "From", to: "To", clientId: "Client", "": "The period" };

/** Paper, not a screen: page margins, table headers repeated on every page, rows never split across pages. */
const printStyles = (
  <GlobalStyles
    styles={{
      "@page": { margin: "18mm 16mm" },
      "@media print": {
        thead: { display: "table-header-group" },
        // The totals row prints once, after the last row, not at the foot of every page.
        tfoot: { display: "table-row-group" },
        tr: { breakInside: "avoid" },
        "h1, h2": { breakAfter: "avoid" },
        "a[href]": { color: "inherit", textDecoration: "none" },
      },
    }}
  />
);

function PeriodProblems({ problems }: { problems: QueryProblems }) {
  return (
    <Alert severity="error">
      This report cannot be made for the period in the link:
      <Box component="ul" sx={{ m: 0, pl: 3 }}>
        {Object.entries(problems).map(([field, message]) => (
          <li key={field}>
            {fieldWords[field] ?? field}: {sentence(message)}
          </li>
        ))}
      </Box>
    </Alert>
  );
}

function ReportSection({ title, report, label }: { title: string; report: BillableHoursReport; label: string }) {
  return (
    <Box component="section" sx={{ mt: 4 }}>
      <Typography variant="h6" component="h2" gutterBottom>
        {title}
      </Typography>
      <BillableHoursTable report={report} label={label} />
    </Box>
  );
}

/**
 * `/reporting/continuous-monitoring/{clientId}?from&to` (base layout): one client's billable hours for a period,
 * by month and by technologist with their totals, laid out to be printed or saved as PDF. The days of the period
 * are the client's, and its time zone is named; the buttons and the way back do not print.
 */
export function ClientReportPage() {
  const { clientId = "" } = useParams();
  const period = currentMonthToDate();
  const [search] = useSearchState({ from: period.from, to: period.to });
  const base: Omit<BillableHoursParams, "groupBy"> = { from: search.from, to: search.to, clientId };
  const byMonthParams: BillableHoursParams = { ...base, groupBy: "month" };
  const byTechnologistParams: BillableHoursParams = { ...base, groupBy: "technologist" };
  const localProblems = checkReportQuery(byMonthParams);
  const valid = Object.keys(localProblems).length === 0;
  const client = useClient(clientId);
  const byMonth = useBillableHoursReport(byMonthParams, { enabled: valid });
  const byTechnologist = useBillableHoursReport(byTechnologistParams, { enabled: valid });
  const backUrl = pages["reporting-overview"].href({}, { from: search.from, to: search.to, client: clientId });

  const controls = (
    <Stack
      className="vigil-no-print"
      direction="row"
      sx={{ mb: 3, gap: 2, alignItems: "center", justifyContent: "space-between", flexWrap: "wrap" }}
    >
      <Link component={RouterLink} to={backUrl} sx={{ display: "inline-flex", alignItems: "center", gap: 0.5 }}>
        <ArrowBack fontSize="small" aria-hidden="true" />
        Back to billable hours
      </Link>
      <Button variant="contained" startIcon={<Print />} onClick={() => window.print()}>
        Print / Save as PDF
      </Button>
    </Stack>
  );

  const body = (() => {
    if (!valid) return <PeriodProblems problems={localProblems} />;
    if (client.isError) {
      if (isNotFound(client.error)) return <Alert severity="error">There is no client with this id.</Alert>;
      return <QueryError what="The client" error={client.error} onRetry={() => void client.refetch()} />;
    }
    const failed = byMonth.isError ? byMonth : byTechnologist.isError ? byTechnologist : undefined;
    if (failed) {
      const problems = serverQueryProblems(failed.error);
      if (Object.keys(problems).length > 0) return <PeriodProblems problems={problems} />;
      return <QueryError what="The report" error={failed.error} onRetry={() => void failed.refetch()} />;
    }
    const months = byMonth.isPlaceholderData ? undefined : byMonth.data;
    const technologists = byTechnologist.isPlaceholderData ? undefined : byTechnologist.data;
    // A printout is of one period only: another period's figures are never shown while this one loads.
    if (!client.data || !months || !technologists) return <LoadingScreen label="Loading the client report…" />;
    const zone = client.data.timezone;
    return (
      <Box
        component="article"
        aria-label="Printable client report"
        sx={{
          maxWidth: 900,
          p: { xs: 2, sm: 4 },
          border: "1px solid",
          borderColor: "divider",
          bgcolor: "background.paper",
          "@media print": { border: 0, p: 0, maxWidth: "none", color: "#000" },
        }}
      >
        <Typography variant="overline" component="p" color="text.secondary">
          Continuous monitoring · billable hours
        </Typography>
        <Typography variant="h4" component="h1" gutterBottom>
          {client.data.name}
        </Typography>
        <Box component="dl" sx={{ display: "grid", gridTemplateColumns: "max-content 1fr", columnGap: 2, rowGap: 0.5 }}>
          <Typography component="dt" sx={{ fontWeight: 600 }}>
            Period
          </Typography>
          <Typography component="dd" sx={{ m: 0 }}>
            {formatPeriod(months.from, months.to)}, days in the client's time zone ({zone})
          </Typography>
          <Typography component="dt" sx={{ fontWeight: 600 }}>
            Client code
          </Typography>
          <Typography component="dd" sx={{ m: 0 }}>
            {client.data.code}
          </Typography>
          <Typography component="dt" sx={{ fontWeight: 600 }}>
            Generated at
          </Typography>
          <Typography component="dd" sx={{ m: 0 }}>
            <time dateTime={months.generatedAt}>{formatInstantInZone(months.generatedAt, zone)}</time>
          </Typography>
          <Typography component="dt" sx={{ fontWeight: 600 }}>
            Total
          </Typography>
          <Typography component="dd" sx={{ m: 0 }}>
            {months.totals.hours} hours · {countOf(months.totals.caseCount, "case")} ·{" "}
            {countOf(months.totals.logCount, "time log")}
          </Typography>
        </Box>
        <ReportSection title="By month" report={months} label="Billable hours by month" />
        <ReportSection title="By technologist" report={technologists} label="Billable hours by technologist" />
      </Box>
    );
  })();

  return (
    <>
      {printStyles}
      {controls}
      {body}
    </>
  );
}
