import ReceiptLong from "@mui/icons-material/ReceiptLong";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { BillingStatement, IssuedStatement } from "@vigil/contract";
import { useId, useState } from "react";
import { useAccess } from "../../../components/access/access-context";
import { ConfirmDialog } from "../../../components/feedback/confirm-dialog";
import { apiErrorOf } from "../../../components/forms/field-messages";
import { useIssueBillingStatement } from "../api/issue-billing-statement";
import { formatMoney, formatMonth } from "../billing-format";

export type IssueOutcome = { issued: IssuedStatement } | { refused: string };

/**
 * "Issue statement" (billing:write), on a statement not issued yet: asks first, because an issued statement is
 * numbered and never changes, then issues exactly the figures on the screen (their fingerprint goes in If-Match).
 * When the month cannot be issued the button stays, disabled, with the reason beside it. A refusal from the server
 * (the figures moved, or someone issued the month first) closes the question and is told on the page, where the
 * statement has been read again.
 */
export function IssueStatementAction({
  statement,
  onOutcome,
}: {
  statement: BillingStatement;
  onOutcome: (outcome: IssueOutcome) => void;
}) {
  const { can } = useAccess();
  const [asking, setAsking] = useState(false);
  const issue = useIssueBillingStatement();
  const reasonId = useId();
  if (!can("billing:write") || statement.issued) return null;
  const month = formatMonth(statement.month);
  const refusal = statement.issueRefusal;
  return (
    <Stack direction="row" sx={{ gap: 1, alignItems: "center", flexWrap: "wrap" }}>
      <Button
        variant="outlined"
        startIcon={<ReceiptLong />}
        disabled={refusal !== null}
        aria-describedby={refusal ? reasonId : undefined}
        onClick={() => setAsking(true)}
      >
        Issue statement
      </Button>
      {refusal ? (
        <Typography id={reasonId} variant="body2" color="text.secondary" sx={{ maxWidth: 420 }}>
          {refusal}
        </Typography>
      ) : null}
      <ConfirmDialog
        open={asking}
        title={`Issue the statement for ${month}?`}
        confirmLabel="Issue statement"
        pending={issue.isPending}
        onClose={() => setAsking(false)}
        onConfirm={() =>
          issue.mutate(
            { clientId: statement.client.id, month: statement.month, fingerprint: statement.fingerprint },
            {
              onSuccess: (issued) => {
                setAsking(false);
                onOutcome({ issued });
              },
              onError: (error) => {
                setAsking(false);
                onOutcome({ refused: apiErrorOf(error)?.message ?? String(error) });
              },
            },
          )
        }
      >
        {statement.client.name} is billed {formatMoney(statement.totals.amount, statement.currency)} for{" "}
        {statement.totals.caseCount} {statement.totals.caseCount === 1 ? "case" : "cases"} in {month}, as shown. The
        statement gets the client's next number and is never changed afterwards: later changes are carried to the next
        statement as differences. Its invoice is issued with it, with the next invoice number and the client's payment
        terms, and cannot be edited either.
      </ConfirmDialog>
    </Stack>
  );
}
