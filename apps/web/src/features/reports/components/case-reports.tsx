import ForwardToInbox from "@mui/icons-material/ForwardToInbox";
import LinkOff from "@mui/icons-material/LinkOff";
import PrintOutlined from "@mui/icons-material/PrintOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import {
  type Case,
  pages,
  type ReportDelivery,
  type ReportList,
  type ReportRecipient,
  type ReportVersion,
} from "@vigil/contract";
import { type ReactNode, useId, useState } from "react";
import { Link as RouterLink } from "react-router";
import { ZonedDateTime } from "../../../components/dates/zoned-date-time";
import { LoadingScreen } from "../../../components/feedback/loading-screen";
import { QueryError } from "../../../components/feedback/query-error";
import { ScrollRegion } from "../../../components/tables/scroll-region";
import { visuallyHidden } from "../../../components/visually-hidden";
import { useCaseReports } from "../api/list-case-reports";
import { deliveryStatusLabels, versionLabel, voidReasonLabels } from "../report-labels";
import { ReportEhrStatus } from "./report-ehr-status";
import { ReportFileButtons } from "./report-file-buttons";
import { ResendReportDialog } from "./resend-report-dialog";
import { VoidLinkDialog } from "./void-link-dialog";

const statusColors = { pending: "default", sent: "success", failed: "error" } as const;

function Time({ value, timeZone }: { value: string | null; timeZone: string }) {
  return value ? <ZonedDateTime value={value} timeZone={timeZone} /> : <>—</>;
}

function DeliveryStatus({ delivery, timeZone }: { delivery: ReportDelivery; timeZone: string }) {
  if (delivery.voidedAt && delivery.voidReason) {
    return (
      <>
        <Chip size="small" variant="outlined" label={voidReasonLabels[delivery.voidReason]} />
        <Typography variant="body2" color="text.secondary">
          <Time value={delivery.voidedAt} timeZone={timeZone} />
        </Typography>
      </>
    );
  }
  return (
    <>
      <Chip
        size="small"
        variant={delivery.status === "failed" ? "filled" : "outlined"}
        color={statusColors[delivery.status]}
        label={deliveryStatusLabels[delivery.status]}
      />
      {delivery.lastError ? (
        <Typography variant="body2" color={delivery.status === "failed" ? "error" : "text.secondary"}>
          {delivery.lastError}
        </Typography>
      ) : null}
    </>
  );
}

/** A link that may still download the report: sent (or on its way), neither used nor withdrawn. */
function voidable(delivery: ReportDelivery): boolean {
  return delivery.status !== "failed" && delivery.openedAt === null && delivery.voidedAt === null;
}

/**
 * To whom this version went, when, and when each link was used (which is when the PDF was downloaded) or withdrawn;
 * "Void link" for an unused one, for those who may send reports.
 */
function Deliveries({
  version,
  timeZone,
  canSend,
  onVoid,
}: {
  version: ReportVersion;
  timeZone: string;
  canSend: boolean;
  onVoid: (delivery: ReportDelivery) => void;
}) {
  const label = `Deliveries of version ${version.version}`;
  if (version.deliveries.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        Not e-mailed to anyone: the client's protocol named no report recipient when this version was made.
      </Typography>
    );
  }
  return (
    <ScrollRegion label={label}>
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            {["Recipient", "Status", "Sent", "Downloaded", "Link works until", "Sent by", ...(canSend ? [""] : [])].map(
              (header, index) => (
                <TableCell key={header || index} sx={{ fontWeight: 600 }}>
                  {header || (
                    <Box component="span" sx={visuallyHidden}>
                      Actions
                    </Box>
                  )}
                </TableCell>
              ),
            )}
          </TableRow>
        </TableHead>
        <TableBody>
          {version.deliveries.map((delivery) => (
            <TableRow key={delivery.id} data-status={delivery.status}>
              <TableCell>
                {delivery.recipientName}
                <Typography variant="body2" color="text.secondary">
                  {delivery.destination}
                </Typography>
              </TableCell>
              <TableCell>
                <DeliveryStatus delivery={delivery} timeZone={timeZone} />
              </TableCell>
              <TableCell>
                <Time value={delivery.sentAt} timeZone={timeZone} />
              </TableCell>
              <TableCell>
                {delivery.openedAt ? <Time value={delivery.openedAt} timeZone={timeZone} /> : "Not yet"}
              </TableCell>
              <TableCell>
                <Time value={delivery.linkExpiresAt} timeZone={timeZone} />
              </TableCell>
              <TableCell>{delivery.sentBy ? delivery.sentBy.name || delivery.sentBy.username : "On signing"}</TableCell>
              {canSend ? (
                <TableCell>
                  {voidable(delivery) ? (
                    <Button
                      size="small"
                      color="error"
                      startIcon={<LinkOff />}
                      onClick={() => onVoid(delivery)}
                      aria-label={`Void link: ${delivery.recipientName}, version ${version.version}`}
                    >
                      Void link
                    </Button>
                  ) : null}
                </TableCell>
              ) : null}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </ScrollRegion>
  );
}

function VersionCard({
  list,
  version,
  caseItem,
  onResend,
  onVoid,
}: {
  list: ReportList;
  version: ReportVersion;
  caseItem: Case;
  onResend: (version: ReportVersion) => void;
  onVoid: (version: ReportVersion, delivery: ReportDelivery) => void;
}) {
  const timeZone = caseItem.client.timezone;
  const headingId = `report-version-${version.id}`;
  const signer = version.signedBy.name || version.signedBy.username;
  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: 2 }}>
      <Typography id={headingId} variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        {version.title}, version {versionLabel(version)}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        Signed by {signer} on <ZonedDateTime value={version.signedAt} timeZone={timeZone} />
        {version.kind === "addendum" ? (
          <>
            ; this version made <ZonedDateTime value={version.issuedAt} timeZone={timeZone} />
          </>
        ) : null}
        . FHIR status {version.fhirStatus}.
      </Typography>
      <ReportEhrStatus version={version} timeZone={timeZone} />
      {version.addendum ? (
        <Box sx={{ mt: 1, pl: 2, borderLeft: 3, borderColor: "divider" }}>
          <Typography variant="body2" color="text.secondary">
            Addendum by {version.addendum.author.name || version.addendum.author.username} on{" "}
            <ZonedDateTime value={version.addendum.createdAt} timeZone={timeZone} />
          </Typography>
          <Typography sx={{ whiteSpace: "pre-wrap" }}>{version.addendum.text}</Typography>
        </Box>
      ) : null}
      <Stack direction="row" sx={{ my: 1.5, gap: 1, flexWrap: "wrap", alignItems: "flex-start" }}>
        <ReportFileButtons caseId={caseItem.id} caseNumber={list.caseNumber} version={version} />
        <Button
          component={RouterLink}
          to={pages["case-report-print"].href({ caseId: caseItem.id, reportId: version.id }, { stage: caseItem.stage })}
          variant="outlined"
          size="small"
          startIcon={<PrintOutlined />}
          aria-label={`Printable page of version ${version.version}`}
        >
          Printable page
        </Button>
        {list.canSend ? (
          <Button
            variant="outlined"
            size="small"
            startIcon={<ForwardToInbox />}
            onClick={() => onResend(version)}
            aria-label={`Send again: version ${version.version}`}
          >
            Send again
          </Button>
        ) : null}
      </Stack>
      <Deliveries
        version={version}
        timeZone={timeZone}
        canSend={list.canSend}
        onVoid={(delivery) => onVoid(version, delivery)}
      />
    </Paper>
  );
}

/** Whom the protocol names now: each new version goes to them on signing. */
function RecipientsLine({ recipients }: { recipients: readonly ReportRecipient[] }) {
  if (recipients.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        The client's protocol names no report recipient: signed reports are not e-mailed until it does.
      </Typography>
    );
  }
  const unreachable = recipients.filter((recipient) => recipient.email === null);
  return (
    <Typography variant="body2" color="text.secondary">
      Each signed version is e-mailed as a one-time download link to{" "}
      {recipients.map((recipient) => `${recipient.name}${recipient.email ? ` (${recipient.email})` : ""}`).join(", ")}.
      {unreachable.length > 0
        ? ` ${unreachable.map((recipient) => recipient.name).join(", ")} ${unreachable.length === 1 ? "has" : "have"} no e-mail address and cannot be sent a link.`
        : ""}
    </Typography>
  );
}

/**
 * The case's "Reports": every version of every signed report (newest first), its PDF and FHIR, to whom it was
 * e-mailed and when each link was used, and "Send again" and "Void link" for those who may (`reports:send`). Shown below the
 * interpretations, which are what the reports are made from.
 */
export function CaseReports({ caseItem }: { caseItem: Case }) {
  const reports = useCaseReports(caseItem.id);
  const [resending, setResending] = useState<ReportVersion | null>(null);
  const [sentTo, setSentTo] = useState<{ version: number; names: string[] } | null>(null);
  const [voiding, setVoiding] = useState<{ version: ReportVersion; delivery: ReportDelivery } | null>(null);
  const [voided, setVoided] = useState<{ version: number; name: string } | null>(null);

  const headingId = useId();
  let content: ReactNode;
  if (reports.isPending) content = <LoadingScreen label="Loading the reports…" />;
  else if (reports.isError) {
    content = <QueryError what="The reports" error={reports.error} onRetry={() => void reports.refetch()} />;
  } else {
    const list = reports.data;
    content = (
      <Stack spacing={2}>
        <RecipientsLine recipients={list.recipients} />
        {sentTo ? (
          <Alert severity="success" role="status" onClose={() => setSentTo(null)}>
            A new link to version {sentTo.version} is on its way to {sentTo.names.join(", ")}.
          </Alert>
        ) : null}
        {voided ? (
          <Alert severity="success" role="status" onClose={() => setVoided(null)}>
            The link to version {voided.version} sent to {voided.name} no longer downloads the report.
          </Alert>
        ) : null}
        {list.items.length === 0 ? (
          <Typography color="text.secondary">
            No signed report yet. Signing an interpretation makes its report, and each addendum a new version.
          </Typography>
        ) : (
          list.items.map((version) => (
            <VersionCard
              key={version.id}
              list={list}
              version={version}
              caseItem={caseItem}
              onResend={setResending}
              onVoid={(target, delivery) => setVoiding({ version: target, delivery })}
            />
          ))
        )}
        {voiding ? (
          <VoidLinkDialog
            caseId={caseItem.id}
            version={voiding.version}
            delivery={voiding.delivery}
            onClose={() => setVoiding(null)}
            onVoided={() => {
              setVoided({ version: voiding.version.version, name: voiding.delivery.recipientName });
              setVoiding(null);
            }}
          />
        ) : null}
        {resending ? (
          <ResendReportDialog
            caseId={caseItem.id}
            clientId={caseItem.clientId}
            version={resending}
            recipients={list.recipients}
            onClose={() => setResending(null)}
            onSent={(names) => {
              setSentTo({ version: resending.version, names });
              setResending(null);
            }}
          />
        ) : null}
      </Stack>
    );
  }

  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 4 }}>
      <Typography id={headingId} variant="h6" component="h2" gutterBottom>
        Reports
      </Typography>
      {content}
    </Box>
  );
}
