import Add from "@mui/icons-material/Add";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import type { Client } from "@vigil/contract";
import { Link as RouterLink } from "react-router";
import { useAccess } from "../../../components/access/access-context";
import { PageHeading } from "../../../components/layouts/page-heading";
import type { CsvColumn } from "../../../components/tables/csv";
import { CsvExportButton } from "../../../components/tables/csv-export-button";
import { SearchField } from "../../../components/tables/search-field";
import { ServerTable, type ServerTableColumn } from "../../../components/tables/server-table";
import { oneOf, useSearchState, wholeNumber } from "../../../components/tables/use-search-state";
import { fetchClients, useClients } from "../api/list-clients";
import type { ClientListParams } from "../api/query-keys";
import { useRestoreClient } from "../api/restore-client";
import { clientStatusLabels } from "../client-labels";
import { clientCreateUrl, clientUrl } from "../client-urls";
import { ClientStatusChip } from "./client-status-chip";

const statusFilters = ["all", "active", "inactive", "archived"] as const;
const statusFilterLabels: Record<(typeof statusFilters)[number], string> = {
  all: "Active and inactive",
  active: "Active",
  inactive: "Inactive",
  archived: "Archived",
};
const sortKeys = ["name", "code", "createdAt", "updatedAt"] as const;
const sortLabels: Record<(typeof sortKeys)[number], string> = {
  name: "Name",
  code: "Code",
  createdAt: "Date created",
  updatedAt: "Last updated",
};
const pageSizes = [25, 50, 100];

const csvColumns: CsvColumn<Client>[] = [
  { header: "Name", value: (client) => client.name },
  { header: "Code", value: (client) => client.code },
  { header: "Status", value: (client) => (client.archivedAt ? "Archived" : clientStatusLabels[client.status]) },
  { header: "Time zone", value: (client) => client.timezone },
  { header: "Open cases", value: (client) => client.openCaseCount },
  { header: "Phone", value: (client) => client.phone },
  { header: "Address line 1", value: (client) => client.addressLine1 },
  { header: "Address line 2", value: (client) => client.addressLine2 },
  { header: "City", value: (client) => client.city },
  { header: "State or region", value: (client) => client.region },
  { header: "Postal code", value: (client) => client.postalCode },
  { header: "Country", value: (client) => client.country },
  { header: "Notes", value: (client) => client.notes },
  { header: "Created (UTC)", value: (client) => client.createdAt },
  { header: "Updated (UTC)", value: (client) => client.updatedAt },
  { header: "Archived (UTC)", value: (client) => client.archivedAt },
];

function RestoreButton({ client }: { client: Client }) {
  const restore = useRestoreClient();
  return (
    <Button
      size="small"
      onClick={() => restore.mutate(client.id)}
      disabled={restore.isPending}
      aria-label={`Restore ${client.name}`}
    >
      {restore.isPending ? "Restoring…" : "Restore"}
    </Button>
  );
}

/**
 * `/continuous-monitoring/clients`: the server-paged client list. Search, status, sort and page live in the
 * URL, so the list can be bookmarked and Back restores it. CSV export walks every page of the same filter.
 */
export function ClientListPage() {
  const { can } = useAccess();
  const [search, setSearch] = useSearchState({
    search: "",
    status: "all",
    sort: "name",
    order: "asc",
    page: "0",
    size: "25",
  });
  const status = oneOf(search.status, statusFilters, "all");
  const sort = oneOf(search.sort, sortKeys, "name");
  const order = oneOf(search.order, ["asc", "desc"] as const, "asc");
  const pageSize = pageSizes.includes(Number(search.size)) ? Number(search.size) : 25;
  const page = wholeNumber(search.page, 0);
  const filters = { search: search.search, status, sort, order } satisfies Omit<ClientListParams, "limit" | "offset">;
  const clients = useClients({ ...filters, limit: pageSize, offset: page * pageSize });

  const showRestore = status === "archived" && can("clients:restore");
  const columns: ServerTableColumn<Client, (typeof sortKeys)[number]>[] = [
    {
      id: "name",
      header: "Name",
      sortKey: "name",
      cell: (client) => (
        <Link component={RouterLink} to={clientUrl(client.id)}>
          {client.name}
        </Link>
      ),
    },
    { id: "code", header: "Code", sortKey: "code", cell: (client) => client.code },
    { id: "status", header: "Status", cell: (client) => <ClientStatusChip client={client} /> },
    { id: "timezone", header: "Time zone", cell: (client) => client.timezone },
    { id: "openCases", header: "Open cases", align: "right", cell: (client) => client.openCaseCount },
    ...(showRestore
      ? [{ id: "actions", header: "Actions", cell: (client: Client) => <RestoreButton client={client} /> }]
      : []),
  ];

  const trimmedSearch = search.search.trim();
  const emptyMessage = trimmedSearch
    ? `No clients match “${trimmedSearch}”.`
    : status === "archived"
      ? "No archived clients."
      : "No clients yet.";

  return (
    <>
      <PageHeading>Clients</PageHeading>
      <Stack direction="row" sx={{ mb: 2, gap: 2, flexWrap: "wrap", alignItems: "center" }}>
        <SearchField
          urlValue={search.search}
          onSettled={(value) => setSearch({ search: value, page: null }, { replace: true })}
          placeholder="Name or code"
        />
        <TextField
          select
          label="Status"
          size="small"
          value={status}
          onChange={(event) => setSearch({ status: event.target.value, page: null })}
          slotProps={{ select: { native: true } }}
          sx={{ minWidth: 200 }}
        >
          {statusFilters.map((value) => (
            <option key={value} value={value}>
              {statusFilterLabels[value]}
            </option>
          ))}
        </TextField>
        <TextField
          select
          label="Sort by"
          size="small"
          value={sort}
          onChange={(event) => setSearch({ sort: event.target.value, page: null })}
          slotProps={{ select: { native: true } }}
          sx={{ minWidth: 160 }}
        >
          {sortKeys.map((value) => (
            <option key={value} value={value}>
              {sortLabels[value]}
            </option>
          ))}
        </TextField>
        <TextField
          select
          label="Order"
          size="small"
          value={order}
          onChange={(event) => setSearch({ order: event.target.value, page: null })}
          slotProps={{ select: { native: true } }}
          sx={{ minWidth: 140 }}
        >
          <option value="asc">Ascending</option>
          <option value="desc">Descending</option>
        </TextField>
        <Stack direction="row" sx={{ gap: 2, ml: { md: "auto" } }}>
          <CsvExportButton
            noun="clients"
            filename={`clients-${status}-${new Date().toISOString().slice(0, 10)}.csv`}
            columns={csvColumns}
            fetchPage={({ offset, limit, signal }) => fetchClients({ ...filters, offset, limit }, signal)}
            disabled={!clients.data || clients.data.total === 0}
          />
          {can("clients:write") ? (
            <Button component={RouterLink} to={clientCreateUrl} variant="contained" startIcon={<Add />}>
              New client
            </Button>
          ) : null}
        </Stack>
      </Stack>
      <ServerTable
        label="Clients"
        columns={columns}
        rows={clients.data?.items}
        rowKey={(client) => client.id}
        total={clients.data?.total ?? 0}
        page={page}
        pageSize={pageSize}
        pageSizeOptions={pageSizes}
        onPageChange={(next) => setSearch({ page: next })}
        onPageSizeChange={(size) => setSearch({ size, page: null })}
        sort={{ key: sort, order }}
        onSortChange={(next) => setSearch({ sort: next.key, order: next.order, page: null })}
        loading={clients.isPending}
        fetching={clients.isFetching}
        error={clients.error}
        onRetry={() => void clients.refetch()}
        errorMessage="The clients could not be loaded."
        emptyMessage={emptyMessage}
      />
    </>
  );
}
