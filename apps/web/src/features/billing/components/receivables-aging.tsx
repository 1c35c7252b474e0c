import Alert from "@mui/material/Alert";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { type AgingRow, agingQuerySchema, pages } from "@vigil/contract";
import { Link as RouterLink } from "react-router";
import { PageHeading } from "../../../components/layouts/page-heading";
import { ServerTable, type ServerTableColumn } from "../../../components/tables/server-table";
import { tableQueryProps, useTableSearch } from "../../../components/tables/use-table-search";
import { useAging } from "../api/receivables";
import { formatMoney } from "../billing-format";

function columnsFor(currency: string): ServerTableColumn<AgingRow>[] {
  const money = (pick: (row: AgingRow) => string) => (row: AgingRow) => formatMoney(pick(row), currency);
  return [
    {
      id: "client",
      header: "Client",
      cell: (row) => (
        <Link component={RouterLink} to={pages["billing-statement-of-account"].href({ clientId: row.client.id })}>
          {row.client.name}
        </Link>
      ),
    },
    { id: "current", header: "Current", align: "right", cell: money((row) => row.current) },
    { id: "days1to30", header: "1–30 days", align: "right", cell: money((row) => row.days1to30) },
    { id: "days31to60", header: "31–60 days", align: "right", cell: money((row) => row.days31to60) },
    { id: "days61to90", header: "61–90 days", align: "right", cell: money((row) => row.days61to90) },
    { id: "over90", header: "Over 90 days", align: "right", cell: money((row) => row.over90) },
    { id: "credit", header: "Credit", align: "right", cell: money((row) => row.credit) },
    { id: "balance", header: "Balance", align: "right", cell: money((row) => row.balance) },
    {
      id: "oldest",
      header: "Oldest overdue",
      cell: (row) =>
        row.oldestOverdue
          ? `${row.oldestOverdue.number} (${row.oldestOverdue.daysPastDue} ${row.oldestOverdue.daysPastDue === 1 ? "day" : "days"})`
          : "—",
    },
  ];
}

/**
 * `/billing/receivables`: what each client owes as of a date (today unless chosen), by days past due, with its
 * credit, balance and oldest overdue invoice; paged by the server, the totals over every client.
 */
export function BillingReceivablesPage() {
  const table = useTableSearch({ asOf: "", page: "0", size: "25" });
  const { search, setSearch } = table;
  const asOf = search.asOf ? { asOf: search.asOf } : {};
  const valid = agingQuerySchema.safeParse({ ...asOf, ...table.range }).success;
  const aging = useAging({ ...asOf, ...table.range }, { enabled: valid });
  const currency = aging.data?.currency ?? "USD";
  return (
    <>
      <PageHeading>Receivables</PageHeading>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Open invoice amounts by days past their due date. The balance counts payments not yet allocated as credit.
      </Typography>
      <Stack role="search" aria-label="Aging date" direction="row" sx={{ mb: 2, gap: 2 }}>
        <TextField
          label="As of"
          type="date"
          size="small"
          value={search.asOf}
          onChange={(event) => setSearch({ asOf: event.target.value, page: null }, { replace: true })}
          error={!valid}
          helperText={valid ? "Today when empty" : "Enter a real date"}
          slotProps={{ inputLabel: { shrink: true } }}
        />
      </Stack>
      {valid ? (
        <>
          <ServerTable
            label="Aging by client"
            columns={columnsFor(currency)}
            rowKey={(row) => row.client.id}
            {...table.pager}
            {...tableQueryProps(aging)}
            errorMessage="The aging report could not be loaded."
            emptyMessage="No client has an invoice or a payment by this date."
          />
          {aging.data ? (
            <Typography sx={{ mt: 2 }} role="status">
              As of {aging.data.asOf}: {formatMoney(aging.data.totals.open, currency)} open, balance{" "}
              {formatMoney(aging.data.totals.balance, currency)}.
            </Typography>
          ) : null}
        </>
      ) : (
        <Alert severity="warning">Change the date to see the aging.</Alert>
      )}
    </>
  );
}
