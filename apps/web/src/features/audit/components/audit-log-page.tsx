import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { type AuditEvent, pages } from "@vigil/contract";
import { useMemo } from "react";
import { Link as RouterLink } from "react-router";
import { useClientIds } from "../../../api/list-client-ids";
import { useAccess } from "../../../components/access/access-context";
import { PageHeading } from "../../../components/layouts/page-heading";
import type { CsvColumn } from "../../../components/tables/csv";
import { CsvExportButton } from "../../../components/tables/csv-export-button";
import { ServerTable, type ServerTableColumn } from "../../../components/tables/server-table";
import { tableQueryProps } from "../../../components/tables/use-table-search";
import { ApiRequestError } from "../../../lib/api-client";
import { type AuditFilterQuery, fetchAuditEvents, useAuditEvents } from "../api/list-audit-events";
import { outcomeLabels } from "../audit-labels";
import { browserTimeZone, formatAuditTime } from "../audit-time";
import { type AuditFilterChange, pageSizes, useAuditLogView } from "../use-audit-log-view";
import { ActiveFilterChips } from "./active-filter-chips";
import { AuditDetails } from "./audit-details";
import { AuditFilters } from "./audit-filters";
import { AuditOutcome } from "./audit-outcome";

/** The CSV keeps instants as ISO (UTC) and details as JSON, so the file can be read by other tools exactly. */
const csvColumns: CsvColumn<AuditEvent>[] = [
  { header: "Time (UTC)", value: (event) => event.at },
  { header: "User", value: (event) => event.actor.username },
  { header: "User id", value: (event) => event.actor.sub },
  { header: "Action", value: (event) => event.action },
  { header: "Outcome", value: (event) => outcomeLabels[event.outcome] },
  { header: "Target type", value: (event) => event.target?.type },
  { header: "Target id", value: (event) => event.target?.id },
  { header: "IP", value: (event) => event.ip },
  { header: "User agent", value: (event) => event.userAgent },
  { header: "Details", value: (event) => (event.details ? JSON.stringify(event.details) : "") },
  { header: "Event id", value: (event) => event.id },
  { header: "Count", value: (event) => String(event.count) },
];

/** A target, and for a case or a client a one-click way to see everything about it. */
function TargetCell({
  event,
  query,
  onChange,
}: {
  event: AuditEvent;
  query: AuditFilterQuery;
  onChange: (change: AuditFilterChange) => void;
}) {
  const target = event.target;
  if (!target) return <Typography variant="body2">—</Typography>;
  const key = target.type === "case" ? "caseId" : target.type === "client" ? "clientId" : null;
  // Offered only where it would change the view.
  const filterKey = key && query[key] !== target.id ? key : null;
  return (
    <Stack sx={{ alignItems: "flex-start" }}>
      <Typography variant="body2">{target.type}</Typography>
      <Typography variant="caption" sx={{ fontFamily: "monospace", wordBreak: "break-all" }}>
        {target.id}
      </Typography>
      {filterKey ? (
        <Link component="button" variant="caption" onClick={() => onChange({ [filterKey]: target.id })}>
          Everything about this {target.type}
        </Link>
      ) : null}
    </Stack>
  );
}

/**
 * `/audit`: the administrators' audit log. Filters live in the URL (a link can arrive with `?caseId=…`), the
 * server pages and filters, CSV export walks every page of the same filter; times in the browser's zone, named.
 */
export function AuditLogPage() {
  const { can } = useAccess();
  const timeZone = useMemo(() => browserTimeZone(), []);
  const { view, setFilters, setPage, setPageSize, clearFilters } = useAuditLogView();
  const events = useAuditEvents({ ...view.query, limit: view.pageSize, offset: view.page * view.pageSize });
  const clients = useClientIds({ enabled: can("clients:read") });

  const columns: ServerTableColumn<AuditEvent>[] = [
    {
      id: "at",
      header: "Time",
      cell: (event) => (
        <time dateTime={event.at} style={{ whiteSpace: "nowrap" }}>
          {formatAuditTime(event.at, timeZone)}
        </time>
      ),
    },
    {
      id: "user",
      header: "User",
      cell: (event) =>
        event.actor.username ?? (
          <Typography variant="body2" color="text.secondary" component="span">
            {event.actor.sub ? "Unknown user" : "Nobody signed in"}
          </Typography>
        ),
    },
    {
      id: "action",
      header: "Action",
      cell: (event) => (
        <>
          <Typography variant="body2" component="code" sx={{ fontFamily: "monospace" }}>
            {event.action}
          </Typography>
          {/* Repeated refusals from one address in one window are one row (REPORTS.md, "The links' gate"). */}
          {event.count > 1 ? (
            <Typography variant="caption" component="div" color="text.secondary">
              {event.count} times
            </Typography>
          ) : null}
        </>
      ),
    },
    { id: "outcome", header: "Outcome", cell: (event) => <AuditOutcome outcome={event.outcome} /> },
    {
      id: "target",
      header: "Target",
      cell: (event) => <TargetCell event={event} query={view.query} onChange={setFilters} />,
    },
    { id: "ip", header: "IP", cell: (event) => event.ip ?? "—" },
    { id: "details", header: "Details", cell: (event) => <AuditDetails event={event} /> },
  ];

  const reason = events.error instanceof ApiRequestError ? events.error.body.message : undefined;
  const today = new Date().toISOString().slice(0, 10);
  return (
    <>
      <PageHeading>Audit log</PageHeading>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Who did what, when, from where and how it ended; newest first. Times are in your browser's time zone, {timeZone}
        , each with the offset it had then.
      </Typography>
      <Typography sx={{ mb: 2 }}>
        <Link component={RouterLink} to={pages["audit-disclosures"].href()}>
          Accounting of disclosures
        </Link>{" "}
        — every time one patient's EEG report left Vigil.
      </Typography>
      <AuditFilters
        view={view}
        onChange={setFilters}
        onClear={clearFilters}
        clients={clients.data}
        timeZone={timeZone}
      />
      <Stack direction="row" sx={{ mb: 2, gap: 2, alignItems: "flex-start" }}>
        <ActiveFilterChips view={view} clients={clients.data} timeZone={timeZone} onChange={setFilters} />
        <Stack direction="row" sx={{ ml: "auto" }}>
          <CsvExportButton
            noun="audit events"
            filename={`audit-log-${today}.csv`}
            columns={csvColumns}
            fetchPage={({ offset, limit, signal }) => fetchAuditEvents({ ...view.query, offset, limit }, signal)}
            disabled={!events.data || events.data.total === 0}
          />
        </Stack>
      </Stack>
      <ServerTable
        label="Audit events"
        columns={columns}
        rowKey={(event) => event.id}
        page={view.page}
        pageSize={view.pageSize}
        pageSizeOptions={pageSizes}
        onPageChange={setPage}
        onPageSizeChange={setPageSize}
        {...tableQueryProps(events)}
        errorMessage={`The audit log could not be loaded${reason ? `: ${reason}` : "."}`}
        emptyMessage={
          view.filtered ? "No audit events match these filters." : "No audit events have been recorded yet."
        }
      />
    </>
  );
}
