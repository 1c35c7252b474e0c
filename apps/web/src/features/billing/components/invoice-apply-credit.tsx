import Button from "@mui/material/Button";
import TextField from "@mui/material/TextField";
import type { Invoice } from "@vigil/contract";
import { useState } from "react";
import { useAccess } from "../../../components/access/access-context";
import { ConfirmDialog } from "../../../components/feedback/confirm-dialog";
import { apiErrorOf } from "../../../components/forms/field-messages";
import { useApplyClientCredit } from "../api/payments";
import { formatMoney } from "../billing-format";

/**
 * "Apply client's credit…" on an invoice with something open: the client's unallocated payments, oldest first, up to
 * what is open (or the amount given). Asked first; the server says when there is no credit to apply.
 */
export function InvoiceApplyCredit({ invoice }: { invoice: Invoice }) {
  const { can } = useAccess();
  const apply = useApplyClientCredit();
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const openCents = Math.round(Number(invoice.open) * 100);
  if (!can("billing:write") || invoice.kind === "credit-note" || invoice.status === "written-off" || openCents <= 0) {
    return done ? <output>{done}</output> : null;
  }
  const close = () => {
    setOpen(false);
    setProblem(null);
  };
  const confirm = () => {
    apply.mutate(
      { clientId: invoice.client.id, invoiceId: invoice.id, ...(amount.trim() ? { amount: amount.trim() } : {}) },
      {
        onSuccess: (result) => {
          setDone(`Applied ${formatMoney(result.allocated, invoice.currency)} of the client's credit.`);
          close();
        },
        onError: (error) => setProblem(apiErrorOf(error)?.message ?? String(error)),
      },
    );
  };
  return (
    <>
      <Button variant="outlined" className="vigil-no-print" onClick={() => setOpen(true)}>
        Apply client's credit…
      </Button>
      {done ? <output>{done}</output> : null}
      <ConfirmDialog
        open={open}
        title={`Apply ${invoice.client.name}'s credit to ${invoice.number}?`}
        confirmLabel="Apply credit"
        pending={apply.isPending}
        error={problem}
        onClose={close}
        onConfirm={confirm}
      >
        Allocates the client's unallocated payments, oldest first, to the {formatMoney(invoice.open, invoice.currency)}{" "}
        open on {invoice.number}. Leave the amount blank to apply as much as the credit and the invoice allow.
        <TextField
          label="Amount to apply (optional)"
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          slotProps={{ htmlInput: { inputMode: "decimal" } }}
          sx={{ mt: 2 }}
          fullWidth
        />
      </ConfirmDialog>
    </>
  );
}
