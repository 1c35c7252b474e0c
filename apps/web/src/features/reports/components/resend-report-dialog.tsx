import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Typography from "@mui/material/Typography";
import { type ReportRecipient, type ReportVersion, resendReportInputSchema } from "@vigil/contract";
import { useId, useState } from "react";
import { useClientContacts } from "../../../api/list-client-contacts";
import { Dialog } from "../../../components/feedback/dialog";
import { LoadingScreen } from "../../../components/feedback/loading-screen";
import { QueryError } from "../../../components/feedback/query-error";
import { ContactPicker } from "../../../components/forms/contact-picker";
import { apiErrorOf, serverFieldErrors } from "../../../components/forms/field-messages";
import { useResendReport } from "../api/resend-report";

export type ResendReportDialogProps = {
  caseId: string;
  clientId: string;
  version: ReportVersion;
  /** The protocol's recipients: picked to begin with, where mail can reach them. */
  recipients: readonly ReportRecipient[];
  onClose: () => void;
  /** After the server took it: the names the new links went to. */
  onSent: (names: string[]) => void;
};

/** The message under the picker, worded for a person: the contract's rule, or the server's about the list. */
function pickerMessage(problem: string | undefined): string | undefined {
  if (!problem) return undefined;
  return /at least one/.test(problem) ? "Pick at least one contact." : `The list of contacts ${problem}.`;
}

/**
 * "Send again": a new e-mail, with a new one-time link, to each contact picked (any contact of the case's client).
 * Used when a link expired or was spent by the wrong person, or someone new needs the report.
 */
export function ResendReportDialog({
  caseId,
  clientId,
  version,
  recipients,
  onClose,
  onSent,
}: ResendReportDialogProps) {
  const titleId = useId();
  const contacts = useClientContacts(clientId);
  const resend = useResendReport();
  const [picked, setPicked] = useState<string[]>(() =>
    recipients.filter((recipient) => recipient.email !== null).map((recipient) => recipient.contactId),
  );
  const [problem, setProblem] = useState<string | undefined>();
  const failure = apiErrorOf(resend.error);
  const serverProblem = serverFieldErrors(resend.error).contactIds;
  const initial = recipients.filter((recipient) => recipient.email !== null).length;

  const send = () => {
    const input = resendReportInputSchema.safeParse({ contactIds: picked });
    if (!input.success) {
      setProblem(input.error.issues[0]?.message);
      return;
    }
    setProblem(undefined);
    resend.mutate(
      { caseId, reportId: version.id, input: input.data },
      {
        onSuccess: () => {
          const names = contacts.data?.filter((contact) => picked.includes(contact._id)).map((contact) => contact.name);
          onSent(names ?? []);
        },
      },
    );
  };

  return (
    <Dialog
      open
      onClose={resend.isPending ? undefined : onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="sm"
      unsavedChanges={picked.length !== initial}
    >
      <DialogTitle id={titleId}>Send version {version.version} again</DialogTitle>
      <DialogContent>
        <Typography sx={{ mb: 2 }}>
          Each contact picked gets an e-mail with a new link that downloads “{version.title}” once. The PDF itself is
          never attached.
        </Typography>
        {contacts.isPending ? (
          <LoadingScreen label="Loading the client's contacts…" />
        ) : contacts.isError ? (
          <QueryError what="The client's contacts" error={contacts.error} onRetry={() => void contacts.refetch()} />
        ) : (
          <ContactPicker
            legend="Send to"
            help="The protocol's report recipients are picked to begin with."
            contacts={contacts.data}
            value={picked}
            onChange={(next) => {
              setPicked(next);
              setProblem(undefined);
            }}
            error={pickerMessage(problem ?? serverProblem)}
            disabled={resend.isPending}
          />
        )}
        {failure && !serverProblem ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            Nothing was sent: {failure.message}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={resend.isPending}>
          Cancel
        </Button>
        <Button
          variant="contained"
          onClick={send}
          disabled={resend.isPending || !contacts.data}
          startIcon={resend.isPending ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : undefined}
        >
          Send
        </Button>
      </DialogActions>
    </Dialog>
  );
}
