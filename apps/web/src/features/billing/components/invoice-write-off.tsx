import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import type { Invoice } from "@vigil/contract";
import { useState } from "react";
import { useAccess } from "../../../components/access/access-context";
import { ConfirmDialog } from "../../../components/feedback/confirm-dialog";
import { apiErrorOf } from "../../../components/forms/field-messages";
import { useWriteOffInvoice } from "../api/payments";
import { formatMoney } from "../billing-format";

/**
 * "Write off…" on an invoice with something open: the day and a reason, asked first; the open amount is forgiven
 * (a new ledger entry, nothing edited) and the invoice reads written off.
 */
export function InvoiceWriteOff({ invoice }: { invoice: Invoice }) {
  const { can } = useAccess();
  const writeOff = useWriteOffInvoice();
  const [open, setOpen] = useState(false);
  const [writtenOffOn, setWrittenOffOn] = useState("");
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const openCents = Math.round(Number(invoice.open) * 100);
  if (!can("billing:write") || invoice.kind === "credit-note" || invoice.status === "written-off" || openCents <= 0) {
    return null;
  }
  const close = () => {
    setOpen(false);
    setProblem(null);
  };
  const confirm = () => {
    if (!writtenOffOn || !reason.trim()) {
      setProblem("Give the day and the reason for the write-off.");
      return;
    }
    writeOff.mutate(
      { id: invoice.id, writtenOffOn, reason },
      { onSuccess: close, onError: (error) => setProblem(apiErrorOf(error)?.message ?? String(error)) },
    );
  };
  return (
    <>
      <Button variant="outlined" color="warning" className="vigil-no-print" onClick={() => setOpen(true)}>
        Write off…
      </Button>
      <ConfirmDialog
        open={open}
        title={`Write off ${invoice.number}?`}
        confirmLabel="Write off"
        destructive
        pending={writeOff.isPending}
        error={problem}
        onClose={close}
        onConfirm={confirm}
      >
        Forgives the {formatMoney(invoice.open, invoice.currency)} still open on {invoice.number} from{" "}
        {invoice.client.name}. The invoice stays on record, written off.
        <Stack spacing={2} sx={{ mt: 2 }}>
          <TextField
            label="Written off on"
            type="date"
            required
            value={writtenOffOn}
            onChange={(event) => setWrittenOffOn(event.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            label="Reason"
            required
            multiline
            minRows={2}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            slotProps={{ htmlInput: { maxLength: 1000 } }}
          />
        </Stack>
      </ConfirmDialog>
    </>
  );
}
