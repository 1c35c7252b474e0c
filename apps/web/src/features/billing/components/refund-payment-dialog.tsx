import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { type PaymentMethod, type PaymentSummary, paymentMethods } from "@vigil/contract";
import { useState } from "react";
import { ConfirmDialog } from "../../../components/feedback/confirm-dialog";
import { apiErrorOf } from "../../../components/forms/field-messages";
import { useRefundPayment } from "../api/payments";
import { formatMoney } from "../billing-format";
import { paymentMethodLabels } from "../invoice-labels";

/**
 * Pays back part or all of what is left of a payment (the client's credit): the day, amount (what is left unless
 * changed), how and why. Asked first; a refunded payment cannot be reversed afterwards.
 */
export function RefundPaymentDialog({ payment, onClose }: { payment: PaymentSummary | null; onClose: () => void }) {
  const refund = useRefundPayment();
  const [form, setForm] = useState({ refundedOn: "", amount: "", method: "check" as PaymentMethod, reason: "" });
  const [problem, setProblem] = useState<string | null>(null);
  if (!payment) return null;
  const set = (patch: Partial<typeof form>) => setForm((current) => ({ ...current, ...patch }));
  const amount = form.amount.trim() || payment.unallocated;
  const close = () => {
    setForm({ refundedOn: "", amount: "", method: "check", reason: "" });
    setProblem(null);
    onClose();
  };
  const confirm = () => {
    if (!form.refundedOn || !form.reason.trim()) {
      setProblem("Give the day and the reason for the refund.");
      return;
    }
    refund.mutate(
      { id: payment.id, refundedOn: form.refundedOn, amount, method: form.method, reason: form.reason },
      { onSuccess: close, onError: (error) => setProblem(apiErrorOf(error)?.message ?? String(error)) },
    );
  };
  return (
    <ConfirmDialog
      open
      title="Refund this credit?"
      confirmLabel="Refund"
      destructive
      pending={refund.isPending}
      error={problem}
      onClose={close}
      onConfirm={confirm}
    >
      Pays {formatMoney(amount, payment.currency)} back to {payment.client.name} from the{" "}
      {formatMoney(payment.unallocated, payment.currency)} of this payment not applied to an invoice.
      <Stack spacing={2} sx={{ mt: 2 }}>
        <TextField
          label="Refunded on"
          type="date"
          required
          value={form.refundedOn}
          onChange={(event) => set({ refundedOn: event.target.value })}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          label="Amount"
          value={form.amount}
          placeholder={payment.unallocated}
          onChange={(event) => set({ amount: event.target.value })}
          slotProps={{ htmlInput: { inputMode: "decimal" } }}
          helperText="Blank: all that is left."
        />
        <TextField
          select
          label="Method"
          value={form.method}
          onChange={(event) => set({ method: event.target.value as PaymentMethod })}
        >
          {paymentMethods.map((method) => (
            <MenuItem key={method} value={method}>
              {paymentMethodLabels[method]}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          label="Reason"
          required
          multiline
          minRows={2}
          value={form.reason}
          onChange={(event) => set({ reason: event.target.value })}
          slotProps={{ htmlInput: { maxLength: 1000 } }}
        />
      </Stack>
    </ConfirmDialog>
  );
}
