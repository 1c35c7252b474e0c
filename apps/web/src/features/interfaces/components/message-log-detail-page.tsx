import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { type Hl7MessageDetail, pages } from "@vigil/contract";
import { type ReactNode, useMemo } from "react";
import { Link as RouterLink, useLocation, useParams } from "react-router";
import { useAccess } from "../../../components/access/access-context";
import { LoadingScreen } from "../../../components/feedback/loading-screen";
import { isNotFound, QueryError } from "../../../components/feedback/query-error";
import { DetailList, DetailRow } from "../../../components/layouts/detail-list";
import { PageHeading } from "../../../components/layouts/page-heading";
import { useHl7Message } from "../api/message-log-detail";
import { browserTimeZone, directionLabels, formatLogTime } from "../message-log-labels";
import { MessageLogReplay } from "./message-log-replay";
import { MessageLogSegments } from "./message-log-segments";
import { MessageLogStatus } from "./message-log-status";

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" sx={{ mt: 3 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function Preformatted({ label, text }: { label: string; text: string }) {
  return (
    <Box
      component="pre"
      aria-label={label}
      sx={{ m: 0, p: 1.5, bgcolor: "action.hover", borderRadius: 1, overflowX: "auto", fontSize: "0.8125rem" }}
    >
      {text}
    </Box>
  );
}

function Facts({ message, timeZone }: { message: Hl7MessageDetail; timeZone: string }) {
  return (
    <DetailList labelWidth={200}>
      <DetailRow label="Direction">{directionLabels[message.direction]}</DetailRow>
      <DetailRow label="Sender (MSH-3/MSH-4)">
        {message.sendingApplication}/{message.sendingFacility}
      </DetailRow>
      <DetailRow label="Client">
        {message.clientId && message.clientName ? (
          <Link
            component={RouterLink}
            to={pages["client-detail"].href({ clientId: message.clientId, tab: "overview" })}
          >
            {message.clientName}
          </Link>
        ) : (
          "No client's profile owns this sender"
        )}
      </DetailRow>
      <DetailRow label="Patient MRN">{message.patientMrn}</DetailRow>
      <DetailRow label="Order number">{message.orderNumber}</DetailRow>
      <DetailRow label="Case">
        {message.caseId && message.caseNumber ? (
          <Link
            component={RouterLink}
            to={pages["case-intake-detail"].href({ caseId: message.caseId, tab: "overview" })}
          >
            {message.caseNumber}
          </Link>
        ) : null}
      </DetailRow>
      <DetailRow label={message.direction === "inbound" ? "Received" : "Queued"}>
        <time dateTime={message.createdAt}>{formatLogTime(message.createdAt, timeZone)}</time>
      </DetailRow>
      <DetailRow label={message.direction === "inbound" ? "Processed" : "Last answer"}>
        {message.processedAt ? (
          <time dateTime={message.processedAt}>{formatLogTime(message.processedAt, timeZone)}</time>
        ) : null}
      </DetailRow>
      {message.direction === "outbound" ? <DetailRow label="Attempts">{String(message.attempts)}</DetailRow> : null}
      <DetailRow label="Error">{message.error}</DetailRow>
      {message.replayOf ? (
        <DetailRow label="Replay of">
          <Link component={RouterLink} to={pages["interface-message-detail"].href({ messageId: message.replayOf })}>
            The original message
          </Link>
        </DetailRow>
      ) : null}
    </DetailList>
  );
}

/**
 * `/interfaces/hl7/messages/{id}`: one message laid out — what it is and whom it concerns, its segments and fields,
 * the acknowledgement, and for administrators Replay. Opening it is an audited patient-data read.
 */
export function MessageLogDetailPage() {
  const { messageId = "" } = useParams();
  const location = useLocation();
  const { can } = useAccess();
  const timeZone = useMemo(() => browserTimeZone(), []);
  const message = useHl7Message(messageId);
  const back = (location.state as { back?: string } | null)?.back ?? pages["interface-messages"].href();

  const backLink = (
    <Link component={RouterLink} to={back}>
      Back to the message log
    </Link>
  );
  if (message.isPending) return <LoadingScreen label="Loading the message…" />;
  if (message.isError) {
    return (
      <>
        <PageHeading>HL7 message</PageHeading>
        {isNotFound(message.error) ? (
          <Alert severity="info">
            There is no message with this id in the log: it may be older than the log keeps.
          </Alert>
        ) : (
          <QueryError what="The message" error={message.error} onRetry={() => void message.refetch()} />
        )}
        <Box sx={{ mt: 2 }}>{backLink}</Box>
      </>
    );
  }
  const data = message.data;
  return (
    <>
      <Box sx={{ mb: 1 }}>{backLink}</Box>
      <Stack direction="row" sx={{ gap: 2, alignItems: "center", flexWrap: "wrap" }}>
        <PageHeading>
          {data.messageType} {data.controlId}
        </PageHeading>
        <MessageLogStatus status={data.status} ackCode={data.ackCode} />
      </Stack>
      {can("interfaces:manage") ? (
        <Box sx={{ my: 2 }}>
          <MessageLogReplay message={data} />
        </Box>
      ) : null}
      <Facts message={data} timeZone={timeZone} />
      <Section title="Segments and fields">
        <MessageLogSegments segments={data.segments} />
      </Section>
      <Section title="Acknowledgement">
        {data.ack ? (
          <Preformatted label="Acknowledgement" text={data.ack} />
        ) : (
          <Typography color="text.secondary">
            {data.direction === "inbound"
              ? "No acknowledgement was sent (the sender asked for none)."
              : "No acknowledgement has come back yet."}
          </Typography>
        )}
      </Section>
      <Section title="The message as text">
        <Preformatted label="The message as text" text={data.text} />
      </Section>
    </>
  );
}
