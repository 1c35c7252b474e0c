import FileDownload from "@mui/icons-material/FileDownload";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { formatInstantInZone, type ReportLinkView, reportLinkRefusalSchema } from "@vigil/contract";
import { useEffect, useRef } from "react";
import { useParams } from "react-router";
import { ZonedDateTime } from "../../../components/dates/zoned-date-time";
import { LoadingScreen } from "../../../components/feedback/loading-screen";
import {
  LinkRefusal,
  LinkUnreachable,
  linkProblemOf,
  readerTimeZone,
  throttledLinkText,
} from "../../../components/feedback/one-time-link";
import { DetailList, DetailRow } from "../../../components/layouts/detail-list";
import { PageHeading } from "../../../components/layouts/page-heading";
import { saveFile } from "../../../lib/save-file";
import { useDownloadReportLink } from "../api/download-report-link";
import { useReportLink } from "../api/look-up-report-link";
import { reportFileName, versionLabel } from "../report-labels";

const askAgain = "If you still need the report, ask the EEG monitoring team to send it again.";

/**
 * Why this link cannot be used, in words a clinician reads at a glance (no codes, no button): not one of ours, used
 * already, withdrawn by the sender, expired, or too many tries.
 */
export function reportLinkRefusalText(error: unknown): { title: string; detail: string } | undefined {
  const problem = linkProblemOf(error);
  if (!problem) return undefined;
  if (problem.kind === "invalid") {
    return {
      title: "This link is not valid.",
      detail: `Check that the whole link from the e-mail was opened. ${askAgain}`,
    };
  }
  if (problem.kind === "throttled") return throttledLinkText;
  const refusal = reportLinkRefusalSchema.safeParse(problem.details);
  if (refusal.success && refusal.data.reason === "voided") {
    return {
      title: "This link was withdrawn.",
      detail: `The sender withdrew it, so it no longer downloads the report. ${askAgain}`,
    };
  }
  if (refusal.success && refusal.data.reason === "used") {
    // In the client's zone, as the e-mail words its times; the reader's own only if the server named none.
    const zone = refusal.data.timeZone ?? readerTimeZone();
    const at = refusal.data.at ? ` on ${formatInstantInZone(refusal.data.at, zone)}` : "";
    return {
      title: "This link has already been used.",
      detail: `The report was downloaded with it${at}. Each link works once. ${askAgain}`,
    };
  }
  return { title: "This link has expired.", detail: askAgain };
}

/** After the download: what was saved, focused so a screen reader says it at once. */
function Downloaded({ view }: { view: ReportLinkView }) {
  const confirmation = useRef<HTMLDivElement>(null);
  useEffect(() => confirmation.current?.focus(), []);
  return (
    <Alert severity="success" role="status" ref={confirmation} tabIndex={-1}>
      <Typography sx={{ fontWeight: 600 }}>The report is downloaded.</Typography>
      <Typography>
        Look for {reportFileName(view.caseNumber, view.version)} in your downloads. This link has now been used and will
        not open the report again; you can close this page.
      </Typography>
    </Alert>
  );
}

function DownloadButton({ token, view }: { token: string; view: ReportLinkView }) {
  const download = useDownloadReportLink();
  if (download.isSuccess) return <Downloaded view={view} />;
  const refusal = reportLinkRefusalText(download.error);
  if (refusal) return <LinkRefusal {...refusal} />;
  const start = () =>
    download.mutate(token, { onSuccess: (pdf) => saveFile(reportFileName(view.caseNumber, view.version), pdf) });
  return (
    <Stack spacing={2} sx={{ alignItems: "flex-start" }}>
      {download.isError ? (
        <Alert severity="error">The report was not downloaded. Check the connection and try again.</Alert>
      ) : null}
      <Button
        variant="contained"
        size="large"
        onClick={start}
        disabled={download.isPending}
        startIcon={
          download.isPending ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : <FileDownload />
        }
      >
        Download PDF
      </Button>
    </Stack>
  );
}

function LinkContent({ token }: { token: string }) {
  const link = useReportLink(token);
  if (link.isPending) return <LoadingScreen label="Opening the report…" />;
  if (link.isError) {
    const refusal = reportLinkRefusalText(link.error);
    if (refusal) return <LinkRefusal {...refusal} />;
    return <LinkUnreachable what="The report" onRetry={() => void link.refetch()} />;
  }
  const view = link.data;
  // The client's zone, named: the e-mail said "until <this instant> (<zone>)", and the page says the same.
  const zone = view.timeZone;
  return (
    <Stack spacing={2}>
      <Typography>
        From {view.companyName}, for {view.recipientName}. This link downloads the report once, until{" "}
        <ZonedDateTime value={view.linkExpiresAt} timeZone={zone} />.
      </Typography>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <DetailList labelWidth={140}>
          <DetailRow label="Report">{view.title}</DetailRow>
          <DetailRow label="Version">{versionLabel(view)}</DetailRow>
          <DetailRow label="Case">{view.caseNumber}</DetailRow>
          <DetailRow label="Client">{view.clientName}</DetailRow>
          <DetailRow label="Signed by">{view.signedBy}</DetailRow>
          <DetailRow label="Signed">
            <ZonedDateTime value={view.signedAt} timeZone={zone} />
          </DetailRow>
        </DetailList>
      </Paper>
      <Box>
        <DownloadButton token={token} view={view} />
      </Box>
    </Stack>
  );
}

/**
 * `/report/:token` (base layout, no account): the link a report's recipient got by e-mail. The token is read from
 * the address's fragment, which browsers do not send, and travels only in request bodies; the patient's details are
 * only in the PDF, which the download gives once.
 */
export function ReportDownloadPage() {
  const { token = "" } = useParams();
  return (
    <Stack spacing={2} sx={{ maxWidth: 760 }}>
      <PageHeading>EEG report</PageHeading>
      {/* Another link opened in the same tab starts afresh. */}
      <LinkContent key={token} token={token} />
    </Stack>
  );
}
