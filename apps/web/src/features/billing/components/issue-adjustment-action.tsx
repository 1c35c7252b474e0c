import ReceiptLong from "@mui/icons-material/ReceiptLong";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { type BillingStatement, type Invoice, pages } from "@vigil/contract";
import { useState } from "react";
import { Link as RouterLink } from "react-router";
import { useAccess } from "../../../components/access/access-context";
import { ConfirmDialog } from "../../../components/feedback/confirm-dialog";
import { apiErrorOf } from "../../../components/forms/field-messages";
import { useIssueStatementAdjustment } from "../api/issue-statement-adjustment";
import { formatMoney, formatMonth } from "../billing-format";

/**
 * Under the differences of an invoiced month (billing:write): carries them onto a numbered supplementary invoice
 * (they add up to more) or credit note (to less) that refers to the month's invoice. Asks first, with the reason
 * that is printed on the document; a refusal (the figures moved, nothing left to carry) is told in the dialog.
 */
export function IssueAdjustmentAction({ statement }: { statement: BillingStatement }) {
  const { can } = useAccess();
  const issue = useIssueStatementAdjustment();
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [issued, setIssued] = useState<Invoice | null>(null);
  const changes = statement.changesSinceIssue;
  const invoice = statement.issued?.invoice;
  const done = issued ? (
    <Alert severity="success" role="status" onClose={() => setIssued(null)}>
      {issued.kind === "credit-note" ? "Credit note" : "Supplementary invoice"}{" "}
      <Link component={RouterLink} to={pages["billing-invoice"].href({ invoiceId: issued.id })}>
        {issued.number}
      </Link>{" "}
      was issued for {formatMoney(issued.total, issued.currency)}.
    </Alert>
  ) : null;
  if (!can("billing:write") || !invoice || !changes || changes.amount === null || /^-?0+\.00$/.test(changes.amount)) {
    return done;
  }
  const credit = changes.amount.startsWith("-");
  const noun = credit ? "credit note" : "supplementary invoice";
  const amount = formatMoney(changes.amount.replace(/^-/, ""), statement.currency);
  const close = () => {
    setAsking(false);
    setProblem(null);
  };
  const confirm = () => {
    if (reason.trim() === "") {
      setProblem("Give the reason: it is printed on the document.");
      return;
    }
    issue.mutate(
      { clientId: statement.client.id, month: statement.month, fingerprint: statement.fingerprint, reason },
      {
        onSuccess: (document) => {
          close();
          setReason("");
          setIssued(document);
        },
        onError: (error) => setProblem(apiErrorOf(error)?.message ?? String(error)),
      },
    );
  };
  return (
    <Stack spacing={1} sx={{ mt: 2 }}>
      {done}
      <Stack direction="row">
        <Button variant="outlined" startIcon={<ReceiptLong />} onClick={() => setAsking(true)}>
          Issue {noun}
        </Button>
      </Stack>
      <ConfirmDialog
        open={asking}
        title={`Issue a ${noun} for ${formatMonth(statement.month)}?`}
        confirmLabel={`Issue ${noun}`}
        pending={issue.isPending}
        error={problem}
        onClose={close}
        onConfirm={confirm}
      >
        {credit ? "Credits" : "Bills"} {statement.client.name} {amount} (before tax) for the differences shown,
        correcting invoice {invoice.number}. It gets the next {credit ? "credit note" : "invoice"} number and is never
        changed afterwards.
        <TextField
          label="Reason"
          required
          fullWidth
          multiline
          minRows={2}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          helperText="Printed on the document"
          slotProps={{ htmlInput: { maxLength: 1000 } }}
          sx={{ mt: 2 }}
        />
      </ConfirmDialog>
    </Stack>
  );
}
