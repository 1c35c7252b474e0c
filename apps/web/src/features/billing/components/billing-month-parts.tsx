import HourglassTop from "@mui/icons-material/HourglassTop";
import ReceiptLong from "@mui/icons-material/ReceiptLong";
import WarningAmber from "@mui/icons-material/WarningAmber";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { BillingMonthRow, BillingOverview } from "@vigil/contract";
import type { CsvColumn } from "../../../components/tables/csv";
import { CsvExportButton } from "../../../components/tables/csv-export-button";
import { fetchBillingMonths } from "../api/list-billing-months";
import type { BillingMonthsParams } from "../api/query-keys";
import { formatMonth, formatRate } from "../billing-format";

/** The "No rate" flag: a month with hours and no rate anywhere up to it is never billed at zero. */
export function NoRateChip() {
  return <Chip size="small" color="warning" icon={<WarningAmber aria-hidden="true" />} label="No rate" />;
}

/** A month's applied rate with its origin; the warning chip when none applies. */
export function RateSummary({
  row,
  currency,
}: {
  row: Pick<BillingMonthRow, "rate" | "rateMissing">;
  currency: string;
}) {
  if (!row.rate) {
    return row.rateMissing ? (
      <NoRateChip />
    ) : (
      <Typography variant="body2" color="text.secondary">
        No rate set
      </Typography>
    );
  }
  return (
    <Stack direction="row" sx={{ gap: 1, alignItems: "center", flexWrap: "wrap" }}>
      <span>{formatRate(row.rate.hourlyRate, currency)}</span>
      {row.rate.inherited ? (
        <Chip size="small" variant="outlined" label={`Inherited from ${formatMonth(row.rate.fromMonth)}`} />
      ) : null}
    </Stack>
  );
}

/** Invoiced (with the statement's number) and provisional as words (with an icon), never colour alone. */
export function MonthStatus({ row }: { row: Pick<BillingMonthRow, "invoiced" | "statementNumber" | "provisional"> }) {
  if (!row.invoiced && !row.provisional) {
    return (
      <Typography variant="body2" color="text.secondary">
        Not invoiced
      </Typography>
    );
  }
  return (
    <Stack direction="row" sx={{ gap: 1, flexWrap: "wrap" }}>
      {row.invoiced ? (
        <Chip
          size="small"
          color="primary"
          icon={<ReceiptLong aria-hidden="true" />}
          label={row.statementNumber === null ? "Invoiced" : `Invoiced: statement No. ${row.statementNumber}`}
        />
      ) : null}
      {row.provisional ? (
        <Chip
          size="small"
          color="info"
          variant="outlined"
          icon={<HourglassTop aria-hidden="true" />}
          label="Provisional"
          title="A time log is still running: the hours still grow"
        />
      ) : null}
    </Stack>
  );
}

const yesNo = (value: boolean) => (value ? "Yes" : "No");

/**
 * The CSV of clients × months: the figures exactly as the server sent them (no grouping, no symbol), ready to sum
 * again, with the currency they are in named in the money columns' headers and on every row.
 */
const billingMonthCsvColumns = (currency: string): CsvColumn<BillingMonthRow>[] => [
  { header: "Client", value: (row) => row.clientName },
  { header: "Client time zone", value: (row) => row.clientTimezone },
  { header: "Month", value: (row) => row.month },
  { header: "Hours", value: (row) => row.hours },
  { header: `Hourly rate (${currency})`, value: (row) => row.rate?.hourlyRate ?? "" },
  { header: "Rate from month", value: (row) => row.rate?.fromMonth ?? "" },
  { header: "Rate inherited", value: (row) => (row.rate ? yesNo(row.rate.inherited) : "") },
  { header: "Rate missing", value: (row) => yesNo(row.rateMissing) },
  { header: `Amount (${currency})`, value: (row) => row.amount ?? "" },
  { header: "Currency", value: () => currency },
  { header: "Cases", value: (row) => row.caseCount },
  { header: "Invoiced", value: (row) => yesNo(row.invoiced) },
  { header: "Statement number", value: (row) => row.statementNumber ?? "" },
  { header: "Provisional", value: (row) => yesNo(row.provisional) },
];

/**
 * Export CSV of every billing month the filters match (all pages, asked again page by page), offered once the
 * period is valid and the server found rows; the file is named after the period the server answered.
 */
export function BillingMonthsCsvButton({
  filters,
  overview,
  rangeProblem,
  filePrefix,
}: {
  filters: Omit<BillingMonthsParams, "limit" | "offset">;
  /** The page the table shows (its period, currency and total). */
  overview: BillingOverview | undefined;
  rangeProblem: string | null;
  /** "billing", "billing-{clientId}": the file is `{prefix}-{from}-to-{to}.csv`. */
  filePrefix: string;
}) {
  return (
    <CsvExportButton
      noun="billing months"
      filename={`${filePrefix}-${overview?.from ?? "from"}-to-${overview?.to ?? "to"}.csv`}
      columns={billingMonthCsvColumns(overview?.currency ?? "")}
      fetchPage={({ offset, limit, signal }) => fetchBillingMonths({ ...filters, offset, limit }, signal)}
      disabled={rangeProblem !== null || !overview || overview.total === 0}
    />
  );
}
