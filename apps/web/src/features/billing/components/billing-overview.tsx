import Alert from "@mui/material/Alert";
import Checkbox from "@mui/material/Checkbox";
import FormControlLabel from "@mui/material/FormControlLabel";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { type BillingMonthRow, type ClientReceivableSummary, idSchema, pages } from "@vigil/contract";
import { Link as RouterLink } from "react-router";
import { ClientFilterField } from "../../../components/forms/filter-fields";
import { PageHeading } from "../../../components/layouts/page-heading";
import { ServerTable, type ServerTableColumn } from "../../../components/tables/server-table";
import { tableQueryProps, useTableSearch } from "../../../components/tables/use-table-search";
import { useBillingMonths } from "../api/list-billing-months";
import type { BillingMonthsParams } from "../api/query-keys";
import { formatHours, formatMoney, formatMonth } from "../billing-format";
import { BillingMonthsCsvButton, MonthStatus, RateSummary } from "./billing-month-parts";
import { BillingTotals } from "./billing-totals";
import { MonthRangeFields, monthRangeProblem, urlMonth } from "./month-range-fields";

function StatementLink({ row }: { row: BillingMonthRow }) {
  const month = formatMonth(row.month);
  return (
    <Link
      component={RouterLink}
      to={pages["billing-statement"].href({ clientId: row.clientId, month: row.month })}
      aria-label={`${month} statement for ${row.clientName}`}
    >
      {month}
    </Link>
  );
}

/** The client's oldest overdue invoice (as aging has it today), linked, with its days past due. */
function OldestOverdue({ receivable }: { receivable: ClientReceivableSummary | undefined }) {
  const oldest = receivable?.oldestOverdue;
  if (!receivable) return <>—</>;
  if (!oldest) return <>None</>;
  return (
    <>
      <Link component={RouterLink} to={pages["billing-invoice"].href({ invoiceId: oldest.invoiceId })}>
        {oldest.number}
      </Link>{" "}
      ({oldest.daysPastDue} {oldest.daysPastDue === 1 ? "day" : "days"})
    </>
  );
}

const columnsFor = (
  currency: string,
  receivableOf: (clientId: string) => ClientReceivableSummary | undefined,
): ServerTableColumn<BillingMonthRow>[] => [
  {
    id: "client",
    header: "Client",
    cell: (row) => (
      <Link component={RouterLink} to={pages["billing-client"].href({ clientId: row.clientId })}>
        {row.clientName}
      </Link>
    ),
  },
  { id: "month", header: "Month", cell: (row) => <StatementLink row={row} /> },
  { id: "hours", header: "Hours", align: "right", cell: (row) => formatHours(row.hours) },
  { id: "rate", header: "Rate", cell: (row) => <RateSummary row={row} currency={currency} /> },
  { id: "amount", header: `Amount (${currency})`, align: "right", cell: (row) => formatMoney(row.amount, currency) },
  { id: "cases", header: "Cases", align: "right", cell: (row) => row.caseCount },
  { id: "status", header: "Status", cell: (row) => <MonthStatus row={row} /> },
  {
    id: "balance",
    header: `Client balance (${currency})`,
    align: "right",
    cell: (row) => formatMoney(receivableOf(row.clientId)?.balance ?? null, currency),
  },
  {
    id: "oldest-overdue",
    header: "Oldest overdue invoice",
    cell: (row) => <OldestOverdue receivable={receivableOf(row.clientId)} />,
  },
];

/**
 * `/billing/continuous-monitoring`: every client's months with hours, rate, amount and cases, server-paged, with
 * the client's balance and oldest overdue invoice today (the aging report's figures).
 * Period, client and "only months without a rate" live in the URL; totals cover every matching row; the CSV
 * walks every page of the same filter.
 */
export function BillingOverviewPage() {
  const table = useTableSearch({ from: "", to: "", client: "", missing: "", page: "0", size: "25" });
  const { search, setSearch } = table;
  const rangeProblem = monthRangeProblem(search.from, search.to);
  const filters: Omit<BillingMonthsParams, "limit" | "offset"> = {
    from: urlMonth(search.from),
    to: urlMonth(search.to),
    clientId: idSchema.safeParse(search.client).success ? search.client : undefined,
    missingRate: search.missing === "true" ? true : undefined,
  };
  const months = useBillingMonths({ ...filters, ...table.range }, { enabled: rangeProblem === null });
  const anyFilter = Boolean(filters.from || filters.to || filters.clientId || filters.missingRate);
  const currency = months.data?.currency ?? "";
  const receivables = new Map((months.data?.receivables ?? []).map((receivable) => [receivable.clientId, receivable]));

  return (
    <>
      <PageHeading>Continuous monitoring billing</PageHeading>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Billable hours of each client's cases per month, in the client's time zone, at the month's own rate or the
        latest earlier one.
      </Typography>
      <Stack
        role="search"
        aria-label="Billing filters"
        direction="row"
        sx={{ mb: 2, gap: 2, flexWrap: "wrap", alignItems: "flex-start" }}
      >
        <MonthRangeFields
          from={search.from}
          to={search.to}
          shownFrom={months.data?.from}
          shownTo={months.data?.to}
          onChange={(patch) => setSearch({ ...patch, page: null })}
        />
        <ClientFilterField
          value={search.client}
          onChange={(client) => setSearch({ client, page: null })}
          sx={{ minWidth: 220 }}
        />
        <FormControlLabel
          control={
            <Checkbox
              checked={search.missing === "true"}
              onChange={(event) => setSearch({ missing: event.target.checked ? "true" : null, page: null })}
            />
          }
          label="Only months without a rate"
        />
        <Stack direction="row" sx={{ gap: 2, ml: { md: "auto" } }}>
          <BillingMonthsCsvButton
            filters={filters}
            overview={months.data}
            rangeProblem={rangeProblem}
            filePrefix="billing"
          />
        </Stack>
      </Stack>
      {rangeProblem ? (
        <Alert severity="warning">{rangeProblem} Change the period to see the months.</Alert>
      ) : (
        <>
          <ServerTable
            label="Billing by client and month"
            columns={columnsFor(currency, (clientId) => receivables.get(clientId))}
            rowKey={(row) => `${row.clientId}:${row.month}`}
            {...table.pager}
            {...tableQueryProps(months)}
            errorMessage="The billing months could not be loaded."
            emptyMessage={
              filters.missingRate
                ? "Every month with hours has a rate."
                : anyFilter
                  ? "No billable hours match these filters."
                  : "No billable hours in the last 12 months."
            }
          />
          {months.data ? <BillingTotals overview={months.data} /> : null}
        </>
      )}
    </>
  );
}
