import Add from "@mui/icons-material/Add";
import ArrowBack from "@mui/icons-material/ArrowBack";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { type BillingMonthRow, type ClientMonthRate, idSchema, pages } from "@vigil/contract";
import { useState } from "react";
import { Link as RouterLink, useParams } from "react-router";
import { useClient } from "../../../api/get-client";
import { useAccess } from "../../../components/access/access-context";
import { PageHeading } from "../../../components/layouts/page-heading";
import { ServerTable, type ServerTableColumn } from "../../../components/tables/server-table";
import { tableQueryProps, useTableSearch } from "../../../components/tables/use-table-search";
import { useBillingMonths } from "../api/list-billing-months";
import type { BillingMonthsParams } from "../api/query-keys";
import { formatHours, formatMoney, formatMonth, formatRate } from "../billing-format";
import { BillingMonthsCsvButton, MonthStatus, RateSummary } from "./billing-month-parts";
import { BillingProfileSection } from "./billing-profile-form";
import { BillingTotals } from "./billing-totals";
import { MonthRangeFields, monthRangeProblem, urlMonth } from "./month-range-fields";
import { SetRateDialog } from "./set-rate-dialog";

const pageSizes = [12, 24, 60];

/** Which dialog is open: a row's month (as it was when opened), or any month ("new"). */
type Editing = { kind: "row"; row: BillingMonthRow } | { kind: "new" } | null;

/** `/billing/continuous-monitoring/{clientId}`: one client's months (the last 12 unless the URL says otherwise). */
export function BillingClientPage() {
  const { clientId = "" } = useParams();
  if (!idSchema.safeParse(clientId).success) {
    return (
      <>
        <PageHeading>Client not found</PageHeading>
        <Typography>There is no client with this id; it may have been mistyped.</Typography>
        <Link component={RouterLink} to={pages["billing-overview"].href()}>
          Back to billing
        </Link>
      </>
    );
  }
  return <ClientBilling key={clientId} clientId={clientId} />;
}

function ClientBilling({ clientId }: { clientId: string }) {
  const { can } = useAccess();
  const table = useTableSearch({ from: "", to: "", page: "0", size: "12" }, pageSizes);
  const { search, setSearch } = table;
  const rangeProblem = monthRangeProblem(search.from, search.to);
  const filters: Omit<BillingMonthsParams, "limit" | "offset"> = {
    from: urlMonth(search.from),
    to: urlMonth(search.to),
    clientId,
  };
  const months = useBillingMonths({ ...filters, ...table.range }, { enabled: rangeProblem === null });
  const client = useClient(clientId, { enabled: can("clients:read") });
  const [editing, setEditing] = useState<Editing>(null);
  const [saved, setSaved] = useState<ClientMonthRate | null>(null);

  const firstRow = months.data?.items[0];
  const clientName = client.data?.name ?? firstRow?.clientName ?? "This client";
  const timeZone = client.data?.timezone ?? firstRow?.clientTimezone ?? "UTC";
  const canWrite = can("billing:write");
  const currency = months.data?.currency ?? "";
  // The row as the table shows it now (read again after a conflict), else as it was when the dialog opened.
  const editedRow: BillingMonthRow | null =
    editing?.kind === "row" ? (months.data?.items.find((row) => row.month === editing.row.month) ?? editing.row) : null;

  const columns: ServerTableColumn<BillingMonthRow>[] = [
    {
      id: "month",
      header: "Month",
      cell: (row) => (
        <Link
          component={RouterLink}
          to={pages["billing-statement"].href({ clientId: row.clientId, month: row.month })}
          aria-label={`${formatMonth(row.month)} statement`}
        >
          {formatMonth(row.month)}
        </Link>
      ),
    },
    { id: "hours", header: "Hours", align: "right", cell: (row) => formatHours(row.hours) },
    { id: "rate", header: "Rate", cell: (row) => <RateSummary row={row} currency={currency} /> },
    { id: "amount", header: `Amount (${currency})`, align: "right", cell: (row) => formatMoney(row.amount, currency) },
    { id: "cases", header: "Cases", align: "right", cell: (row) => row.caseCount },
    { id: "status", header: "Status", cell: (row) => <MonthStatus row={row} /> },
    ...(canWrite
      ? [
          {
            id: "actions",
            header: "Actions",
            cell: (row: BillingMonthRow) => (
              <Button
                size="small"
                onClick={() => {
                  setSaved(null);
                  setEditing({ kind: "row", row });
                }}
                aria-label={`Set rate for ${formatMonth(row.month)}`}
              >
                Set rate
              </Button>
            ),
          },
        ]
      : []),
  ];

  return (
    <>
      <Link
        component={RouterLink}
        to={pages["billing-overview"].href()}
        sx={{ display: "inline-flex", alignItems: "center", mb: 1 }}
      >
        <ArrowBack fontSize="small" aria-hidden="true" sx={{ mr: 0.5 }} />
        All clients
      </Link>
      <PageHeading>{clientName}: billing</PageHeading>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Months are cut in the client's time zone ({timeZone}). Open a month for its printable statement.
      </Typography>
      {saved ? (
        <Alert severity="success" role="status" sx={{ mb: 2 }} onClose={() => setSaved(null)}>
          The rate for {formatMonth(saved.month)} is now {formatRate(saved.hourlyRate, currency)}.
        </Alert>
      ) : null}
      <Stack
        role="search"
        aria-label="Billing period"
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
        <Stack direction="row" sx={{ gap: 2, ml: { md: "auto" } }}>
          <BillingMonthsCsvButton
            filters={filters}
            overview={months.data}
            rangeProblem={rangeProblem}
            filePrefix={`billing-${clientId}`}
          />
          {canWrite ? (
            <Button
              variant="contained"
              startIcon={<Add />}
              onClick={() => {
                setSaved(null);
                setEditing({ kind: "new" });
              }}
            >
              Set a month's rate
            </Button>
          ) : null}
        </Stack>
      </Stack>
      {rangeProblem ? (
        <Alert severity="warning">{rangeProblem} Change the period to see the months.</Alert>
      ) : (
        <>
          <ServerTable
            label={`${clientName}: billing by month`}
            columns={columns}
            rowKey={(row) => row.month}
            {...table.pager}
            {...tableQueryProps(months)}
            errorMessage="The client's billing months could not be loaded."
            emptyMessage="No billable hours in this period."
          />
          {months.data ? <BillingTotals overview={months.data} /> : null}
        </>
      )}
      <BillingProfileSection clientId={clientId} canWrite={canWrite} />
      {editing ? (
        <SetRateDialog
          clientId={clientId}
          clientName={clientName}
          timeZone={timeZone}
          currency={currency}
          row={editedRow}
          onSaved={(rate) => {
            setEditing(null);
            setSaved(rate);
          }}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </>
  );
}
