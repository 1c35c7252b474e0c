import Add from "@mui/icons-material/Add";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import type { Client } from "@vigil/contract";
import { pages } from "@vigil/contract";
import { Link as RouterLink } from "react-router";
import { useAccess } from "../../../components/access/access-context";
import { optionsOf, SelectField } from "../../../components/forms/select-field";
import { PageHeading } from "../../../components/layouts/page-heading";
import type { CsvColumn } from "../../../components/tables/csv";
import { CsvExportButton } from "../../../components/tables/csv-export-button";
import { SearchField } from "../../../components/tables/search-field";
import { ServerTable, type ServerTableColumn } from "../../../components/tables/server-table";
import { oneOf } from "../../../components/tables/use-search-state";
import { tableQueryProps, tableSortOf, useTableSearch } from "../../../components/tables/use-table-search";
import { fetchClients, useClients } from "../api/list-clients";
import type { ClientListParams } from "../api/query-keys";
import { useRestoreClient } from "../api/restore-client";
import { clientStatusLabels } from "../client-labels";
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
const orderOptions = [
  { value: "asc", label: "Ascending" },
  { value: "desc", label: "Descending" },
];

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
  const table = useTableSearch({
    search: "",
    status: "all",
    sort: "name",
    order: "asc",
    page: "0",
    size: "25",
  });
  const { search, setSearch } = table;
  const status = oneOf(search.status, statusFilters, "all");
  const { sort, order, tableSort } = tableSortOf(table, sortKeys, "name");
  const filters = { search: search.search, status, sort, order } satisfies Omit<ClientListParams, "limit" | "offset">;
  const clients = useClients({ ...filters, ...table.range });

  const showRestore = status === "archived" && can("clients:restore");
  const columns: ServerTableColumn<Client, (typeof sortKeys)[number]>[] = [
    {
      id: "name",
      header: "Name",
      sortKey: "name",
      cell: (client) => (
        <Link component={RouterLink} to={pages["client-detail"].href({ clientId: client.id, tab: "overview" })}>
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
        <SelectField
          label="Status"
          size="small"
          value={status}
          onChange={(value) => setSearch({ status: value, page: null })}
          options={optionsOf(statusFilters, statusFilterLabels)}
          sx={{ minWidth: 200 }}
        />
        <SelectField
          label="Sort by"
          size="small"
          value={sort}
          onChange={(value) => setSearch({ sort: value, page: null })}
          options={optionsOf(sortKeys, sortLabels)}
          sx={{ minWidth: 160 }}
        />
        <SelectField
          label="Order"
          size="small"
          value={order}
          onChange={(value) => setSearch({ order: value, page: null })}
          options={orderOptions}
          sx={{ minWidth: 140 }}
        />
        <Stack direction="row" sx={{ gap: 2, ml: { md: "auto" } }}>
          <CsvExportButton
            noun="clients"
            filename={`clients-${status}-${new Date().toISOString().slice(0, 10)}.csv`}
            columns={csvColumns}
            fetchPage={({ offset, limit, signal }) => fetchClients({ ...filters, offset, limit }, signal)}
            disabled={!clients.data || clients.data.total === 0}
          />
          {can("clients:write") ? (
            <Button component={RouterLink} to={pages["client-create"].href()} variant="contained" startIcon={<Add />}>
              New client
            </Button>
          ) : null}
        </Stack>
      </Stack>
      <ServerTable
        label="Clients"
        columns={columns}
        rowKey={(client) => client.id}
        {...table.pager}
        {...tableSort}
        {...tableQueryProps(clients)}
        errorMessage="The clients could not be loaded."
        emptyMessage={emptyMessage}
      />
    </>
  );
}
