import FileDownload from "@mui/icons-material/FileDownload";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { formatInstantInZone, invoiceLinkRefusalSchema } from "@vigil/contract";
import { useEffect, useRef } from "react";
import { useParams } from "react-router";
import {
  LinkRefusal,
  linkProblemOf,
  readerTimeZone,
  throttledLinkText,
} from "../../../components/feedback/one-time-link";
import { PageHeading } from "../../../components/layouts/page-heading";
import { saveFile } from "../../../lib/save-file";
import { useDownloadInvoiceLink } from "../api/download-invoice-link";

const askAgain = "If you still need the invoice, ask the sender to send it again.";

/** Why this link cannot be used, in words read at a glance: not one of ours, used already, expired, too many tries. */
export function invoiceLinkRefusalText(error: unknown): { title: string; detail: string } | undefined {
  const problem = linkProblemOf(error);
  if (!problem) return undefined;
  if (problem.kind === "invalid") {
    return {
      title: "This link is not valid.",
      detail: `Check that the whole link from the e-mail was opened. ${askAgain}`,
    };
  }
  if (problem.kind === "throttled") return throttledLinkText;
  const refusal = invoiceLinkRefusalSchema.safeParse(problem.details);
  if (refusal.success && refusal.data.reason === "used") {
    const at = refusal.data.at ? ` on ${formatInstantInZone(refusal.data.at, readerTimeZone())}` : "";
    return {
      title: "This link has already been used.",
      detail: `The invoice was downloaded with it${at}. Each link works once. ${askAgain}`,
    };
  }
  return { title: "This link has expired.", detail: askAgain };
}

/** After the download: what was saved, focused so a screen reader says it at once. */
function Downloaded() {
  const confirmation = useRef<HTMLDivElement>(null);
  useEffect(() => confirmation.current?.focus(), []);
  return (
    <Alert severity="success" role="status" ref={confirmation} tabIndex={-1}>
      <Typography sx={{ fontWeight: 600 }}>The invoice is downloaded.</Typography>
      <Typography>
        Look for the PDF in your downloads. This link has now been used and will not open the invoice again; you can
        close this page.
      </Typography>
    </Alert>
  );
}

/**
 * `/invoice/:token` (base layout, no account): the link a client's billing contact got by e-mail instead of the PDF.
 * The token is read from the address's fragment, which browsers do not send, and travels only in the request body;
 * the download gives the PDF as issued once.
 */
export function InvoiceDownloadPage() {
  const { token = "" } = useParams();
  const download = useDownloadInvoiceLink();
  const refusal = invoiceLinkRefusalText(download.error);
  return (
    <Stack spacing={2} sx={{ maxWidth: 760, alignItems: "flex-start" }}>
      <PageHeading>Invoice</PageHeading>
      {download.isSuccess ? (
        <Downloaded />
      ) : refusal ? (
        <LinkRefusal {...refusal} />
      ) : (
        <>
          <Typography>
            An invoice was sent to you with this link. It downloads the PDF once; keep the file you save.
          </Typography>
          {download.isError ? (
            <Alert severity="error">The invoice was not downloaded. Check the connection and try again.</Alert>
          ) : null}
          <Button
            variant="contained"
            size="large"
            disabled={download.isPending}
            onClick={() =>
              download.mutate(token, {
                onSuccess: (pdf) => saveFile("invoice.pdf", pdf),
              })
            }
            startIcon={
              download.isPending ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : <FileDownload />
            }
          >
            Download PDF
          </Button>
        </>
      )}
    </Stack>
  );
}
