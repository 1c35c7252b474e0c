import FileDownload from "@mui/icons-material/FileDownload";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import {
  type InvoiceStatus,
  type InvoiceSummary,
  idSchema,
  invoiceExportQuerySchema,
  invoiceStatuses,
  pages,
} from "@vigil/contract";
import { useState } from "react";
import { Link as RouterLink } from "react-router";
import { apiErrorOf } from "../../../components/forms/field-messages";
import { ClientFilterField } from "../../../components/forms/filter-fields";
import { SelectField } from "../../../components/forms/select-field";
import { PageHeading } from "../../../components/layouts/page-heading";
import { queryProblems, sentence, serverQueryProblems } from "../../../components/tables/query-problems";
import { ServerTable, type ServerTableColumn } from "../../../components/tables/server-table";
import { tableQueryProps, useTableSearch } from "../../../components/tables/use-table-search";
import { saveFile } from "../../../lib/save-file";
import { exportInvoices, useInvoices } from "../api/invoices";
import type { InvoicesParams } from "../api/query-keys";
import { formatMoney, formatMonth } from "../billing-format";
import { invoiceKindLabels, invoiceStatusLabels } from "../invoice-labels";
import { InvoiceStatusChip } from "./invoice-status-chip";

type Filters = Omit<InvoicesParams, "limit" | "offset">;

const columns: ServerTableColumn<InvoiceSummary>[] = [
  {
    id: "number",
    header: "Number",
    cell: (row) => (
      <Link
        component={RouterLink}
        to={pages["billing-invoice"].href({ invoiceId: row.id })}
        sx={{ whiteSpace: "nowrap" }}
      >
        {row.number}
      </Link>
    ),
  },
  {
    id: "kind",
    header: "Kind",
    cell: (row) => (
      <>
        {invoiceKindLabels[row.kind]}
        {row.corrects ? (
          <Typography variant="body2" color="text.secondary">
            Corrects {row.corrects.number}
          </Typography>
        ) : null}
      </>
    ),
  },
  { id: "client", header: "Client", cell: (row) => row.client.name },
  { id: "month", header: "Month", cell: (row) => formatMonth(row.month) },
  { id: "issued", header: "Issued", cell: (row) => <span style={{ whiteSpace: "nowrap" }}>{row.issueDate}</span> },
  { id: "due", header: "Due", cell: (row) => <span style={{ whiteSpace: "nowrap" }}>{row.dueDate}</span> },
  { id: "total", header: "Total", align: "right", cell: (row) => formatMoney(row.total, row.currency) },
  { id: "open", header: "Open", align: "right", cell: (row) => formatMoney(row.open, row.currency) },
  { id: "status", header: "Status", cell: (row) => <InvoiceStatusChip status={row.status} /> },
];

/** The server's CSV of every invoice the filters match, saved under the day. */
function InvoicesCsvButton({ filters, disabled }: { filters: Filters; disabled: boolean }) {
  const [state, setState] = useState<{ pending: boolean; failure: string | null }>({ pending: false, failure: null });
  const download = async () => {
    setState({ pending: true, failure: null });
    try {
      saveFile(`invoices-${new Date().toISOString().slice(0, 10)}.csv`, await exportInvoices(filters));
      setState({ pending: false, failure: null });
    } catch (error) {
      setState({ pending: false, failure: apiErrorOf(error)?.message ?? String(error) });
    }
  };
  return (
    <Stack spacing={1} sx={{ alignItems: "flex-end" }}>
      <Button
        variant="outlined"
        onClick={() => void download()}
        disabled={disabled || state.pending}
        startIcon={state.pending ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : <FileDownload />}
      >
        Download CSV
      </Button>
      {state.failure ? <Alert severity="error">The CSV was not downloaded: {state.failure}</Alert> : null}
    </Stack>
  );
}

function isStatus(value: string): value is InvoiceStatus {
  return (invoiceStatuses as readonly string[]).includes(value);
}

/**
 * `/billing/invoices`: every invoice, credit note and supplementary invoice, newest first, paged by the server.
 * Client, status and issue dates live in the URL; the totals and the CSV cover every matching invoice.
 */
export function BillingInvoicesPage() {
  const table = useTableSearch({ client: "", status: "", from: "", to: "", page: "0", size: "25" });
  const { search, setSearch } = table;
  const filters: Filters = {
    ...(idSchema.safeParse(search.client).success ? { clientId: search.client } : {}),
    ...(isStatus(search.status) ? { status: search.status } : {}),
    ...(search.from ? { from: search.from } : {}),
    ...(search.to ? { to: search.to } : {}),
  };
  // A range the API would refuse is not asked for: its message is shown beside the field instead.
  const problems = queryProblems(invoiceExportQuerySchema, filters);
  const valid = Object.keys(problems).length === 0;
  const invoices = useInvoices({ ...filters, ...table.range }, { enabled: valid });
  const serverProblems = serverQueryProblems(invoices.error);
  const problemOf = (key: string) => {
    const message = problems[key] ?? serverProblems[key];
    return message ? sentence(message) : undefined;
  };
  const anyFilter = Object.keys(filters).length > 0;

  return (
    <>
      <PageHeading>Invoices</PageHeading>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Issued with each month's statement and numbered from one series per year; an issued invoice is never changed.
        Overdue once its due date has passed.
      </Typography>
      <Stack
        role="search"
        aria-label="Invoice filters"
        direction="row"
        sx={{ mb: 2, gap: 2, flexWrap: "wrap", alignItems: "flex-start" }}
      >
        <ClientFilterField
          value={search.client}
          onChange={(client) => setSearch({ client, page: null })}
          sx={{ minWidth: 220 }}
        />
        <SelectField
          label="Status"
          size="small"
          emptyLabel="Any status"
          value={search.status}
          onChange={(status) => setSearch({ status, page: null })}
          options={invoiceStatuses.map((status) => ({ value: status, label: invoiceStatusLabels[status] }))}
          sx={{ minWidth: 160 }}
        />
        {(["from", "to"] as const).map((key) => (
          <TextField
            key={key}
            label={key === "from" ? "Issued from" : "Issued to"}
            type="date"
            size="small"
            value={search[key]}
            onChange={(event) => setSearch({ [key]: event.target.value, page: null }, { replace: true })}
            error={Boolean(problemOf(key))}
            helperText={problemOf(key) ?? "Day included"}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        ))}
        <Stack direction="row" sx={{ gap: 2, ml: { md: "auto" } }}>
          <InvoicesCsvButton filters={filters} disabled={!valid} />
        </Stack>
      </Stack>
      {valid ? (
        <>
          <ServerTable
            label="Invoices"
            columns={columns}
            rowKey={(row) => row.id}
            {...table.pager}
            {...tableQueryProps(invoices)}
            errorMessage="The invoices could not be loaded."
            emptyMessage={anyFilter ? "No invoices match these filters." : "No invoice has been issued yet."}
          />
          {invoices.data && invoices.data.totals.length > 0 ? (
            <Typography sx={{ mt: 2 }} role="status">
              {invoices.data.total} {invoices.data.total === 1 ? "document" : "documents"}, net{" "}
              {invoices.data.totals.map((sum) => formatMoney(sum.total, sum.currency)).join(" · ")}
            </Typography>
          ) : null}
        </>
      ) : (
        <Alert severity="warning">Change the filters to see the invoices.</Alert>
      )}
    </>
  );
}
