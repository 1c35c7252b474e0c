import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { type Hl7MessageSummary, pages } from "@vigil/contract";
import { useMemo } from "react";
import { Link as RouterLink, useLocation } from "react-router";
import { useClientIds } from "../../../api/list-client-ids";
import { useAccess } from "../../../components/access/access-context";
import { PageHeading } from "../../../components/layouts/page-heading";
import type { CsvColumn } from "../../../components/tables/csv";
import { CsvExportButton } from "../../../components/tables/csv-export-button";
import { ServerTable, type ServerTableColumn } from "../../../components/tables/server-table";
import { tableQueryProps } from "../../../components/tables/use-table-search";
import { ApiRequestError } from "../../../lib/api-client";
import { fetchHl7Messages, useHl7Messages } from "../api/message-log-list";
import { browserTimeZone, directionLabels, formatLogTime, statusLabels } from "../message-log-labels";
import { pageSizes, useMessageLogView } from "../message-log-view";
import { MessageLogFilters } from "./message-log-filters";
import { MessageLogStatus } from "./message-log-status";

/** The CSV keeps instants as ISO (UTC), so the file reads the same in any zone and in other tools. */
const csvColumns: CsvColumn<Hl7MessageSummary>[] = [
  { header: "Time (UTC)", value: (message) => message.createdAt },
  { header: "Direction", value: (message) => message.direction },
  { header: "Type", value: (message) => message.messageType },
  { header: "Control id (MSH-10)", value: (message) => message.controlId },
  { header: "Sender", value: (message) => `${message.sendingApplication}/${message.sendingFacility}` },
  { header: "Client", value: (message) => message.clientName },
  { header: "MRN", value: (message) => message.patientMrn },
  { header: "Order number", value: (message) => message.orderNumber },
  { header: "Case", value: (message) => message.caseNumber },
  { header: "Status", value: (message) => statusLabels[message.status].label },
  { header: "ACK", value: (message) => message.ackCode },
  { header: "Error", value: (message) => message.error },
  { header: "Attempts", value: (message) => message.attempts },
  { header: "Message id", value: (message) => message.id },
];

/**
 * `/interfaces/hl7/messages`: every HL7 v2 message in and out, newest first. Filters live in the URL, the server
 * pages and filters, the CSV walks every page of the same filter; times in the browser's zone, named. Each page read
 * is a patient-data read, audited.
 */
export function MessageLogPage() {
  const { can } = useAccess();
  const location = useLocation();
  const timeZone = useMemo(() => browserTimeZone(), []);
  const { view, setFilters, setPage, setPageSize, clearFilters } = useMessageLogView();
  const messages = useHl7Messages({ ...view.query, limit: view.pageSize, offset: view.page * view.pageSize });
  const clients = useClientIds({ enabled: can("clients:read") });
  // The message's page links back to this very view (its filters and page).
  const back = `${location.pathname}${location.search}`;

  const columns: ServerTableColumn<Hl7MessageSummary>[] = [
    {
      id: "at",
      header: "Time",
      cell: (message) => (
        <time dateTime={message.createdAt} style={{ whiteSpace: "nowrap" }}>
          {formatLogTime(message.createdAt, timeZone)}
        </time>
      ),
    },
    {
      id: "message",
      header: "Message",
      cell: (message) => (
        <Stack sx={{ alignItems: "flex-start" }}>
          <Link
            component={RouterLink}
            to={pages["interface-message-detail"].href({ messageId: message.id })}
            state={{ back }}
            sx={{ fontFamily: "monospace" }}
          >
            {message.messageType} {message.controlId}
          </Link>
          <Typography variant="caption" color="text.secondary">
            {directionLabels[message.direction]} · {message.sendingApplication}/{message.sendingFacility}
          </Typography>
        </Stack>
      ),
    },
    { id: "client", header: "Client", cell: (message) => message.clientName ?? "No client" },
    {
      id: "patient",
      header: "MRN / order",
      cell: (message) => (
        <Stack>
          <Typography variant="body2">{message.patientMrn ?? "—"}</Typography>
          <Typography variant="caption" color="text.secondary">
            {message.orderNumber ? `Order ${message.orderNumber}` : "No order number"}
          </Typography>
        </Stack>
      ),
    },
    {
      id: "case",
      header: "Case",
      cell: (message) =>
        message.caseId && message.caseNumber ? (
          <Link
            component={RouterLink}
            to={pages["case-intake-detail"].href({ caseId: message.caseId, tab: "overview" })}
          >
            {message.caseNumber}
          </Link>
        ) : (
          "—"
        ),
    },
    {
      id: "status",
      header: "Status",
      cell: (message) => (
        <Stack sx={{ alignItems: "flex-start", gap: 0.5 }}>
          <MessageLogStatus status={message.status} ackCode={message.ackCode} />
          {message.error ? (
            <Typography variant="caption" sx={{ maxWidth: 320 }}>
              {message.error}
            </Typography>
          ) : null}
        </Stack>
      ),
    },
  ];

  const reason = messages.error instanceof ApiRequestError ? messages.error.body.message : undefined;
  const today = new Date().toISOString().slice(0, 10);
  return (
    <>
      <PageHeading>HL7 message log</PageHeading>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Every HL7 v2 message received from or sent to a hospital, newest first, kept for the days the log's retention
        says. Times are in your browser's time zone, {timeZone}. Opening the log or a message is recorded in the audit
        log.
      </Typography>
      <MessageLogFilters
        view={view}
        onChange={setFilters}
        onClear={clearFilters}
        clients={clients.data}
        timeZone={timeZone}
      />
      <Stack direction="row" sx={{ mb: 2 }}>
        <Stack direction="row" sx={{ ml: "auto" }}>
          <CsvExportButton
            noun="messages"
            filename={`hl7-messages-${today}.csv`}
            columns={csvColumns}
            fetchPage={({ offset, limit, signal }) => fetchHl7Messages({ ...view.query, offset, limit }, signal)}
            disabled={!messages.data || messages.data.total === 0}
          />
        </Stack>
      </Stack>
      <ServerTable
        label="HL7 messages"
        columns={columns}
        rowKey={(message) => message.id}
        page={view.page}
        pageSize={view.pageSize}
        pageSizeOptions={pageSizes}
        onPageChange={setPage}
        onPageSizeChange={setPageSize}
        {...tableQueryProps(messages)}
        errorMessage={`The message log could not be loaded${reason ? `: ${reason}` : "."}`}
        emptyMessage={
          view.filtered ? "No messages match these filters." : "No HL7 message has been received or sent yet."
        }
      />
    </>
  );
}
