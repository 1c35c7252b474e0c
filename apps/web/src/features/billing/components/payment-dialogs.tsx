import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { type PaymentMethod, type PaymentSummary, paymentMethods } from "@vigil/contract";
import { useState } from "react";
import { ConfirmDialog } from "../../../components/feedback/confirm-dialog";
import { apiErrorOf } from "../../../components/forms/field-messages";
import { ClientFilterField } from "../../../components/forms/filter-fields";
import { useInvoices } from "../api/invoices";
import { useAllocatePayment, useRecordPayment, useReversePayment } from "../api/payments";
import { formatMoney } from "../billing-format";
import { paymentMethodLabels } from "../invoice-labels";

const amountPattern = /^\d{1,12}(\.\d{1,2})?$/;

/** The client's invoices with something open, for an allocation. */
function OpenInvoiceField(props: { clientId: string; value: string; onChange: (id: string) => void }) {
  const invoices = useInvoices({ clientId: props.clientId, limit: 100, offset: 0 }, { enabled: props.clientId !== "" });
  const open = (invoices.data?.items ?? []).filter(
    (invoice) => invoice.kind !== "credit-note" && Number(invoice.open) > 0,
  );
  return (
    <TextField
      select
      label="Apply to invoice"
      value={props.value}
      onChange={(event) => props.onChange(event.target.value)}
      helperText="Optional: what is not applied stays a credit"
    >
      <MenuItem value="">None: keep it as a credit</MenuItem>
      {open.map((invoice) => (
        <MenuItem key={invoice.id} value={invoice.id}>
          {invoice.number} · {formatMoney(invoice.open, invoice.currency)} open
        </MenuItem>
      ))}
    </TextField>
  );
}

/** Records a payment received, optionally applying part or all of it to one open invoice; asks before saving. */
export function RecordPaymentDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const record = useRecordPayment();
  const [form, setForm] = useState({
    clientId: "",
    receivedOn: "",
    amount: "",
    method: "check" as PaymentMethod,
    reference: "",
    payer: "",
    invoiceId: "",
    applied: "",
  });
  const [problem, setProblem] = useState<string | null>(null);
  const set = (changes: Partial<typeof form>) => setForm((current) => ({ ...current, ...changes }));
  const confirm = () => {
    if (!form.clientId || !form.receivedOn || !amountPattern.test(form.amount)) {
      setProblem("Choose the client, the day received and an amount such as 1250.00.");
      return;
    }
    const applied = form.applied || form.amount;
    if (form.invoiceId && !amountPattern.test(applied)) {
      setProblem("The amount to apply must be an amount such as 600.00.");
      return;
    }
    record.mutate(
      {
        clientId: form.clientId,
        receivedOn: form.receivedOn,
        amount: form.amount,
        method: form.method,
        reference: form.reference || null,
        payer: form.payer || null,
        allocations: form.invoiceId ? [{ invoiceId: form.invoiceId, amount: applied }] : [],
      },
      {
        onSuccess: () => {
          setProblem(null);
          onClose();
        },
        onError: (error) => setProblem(apiErrorOf(error)?.message ?? String(error)),
      },
    );
  };
  return (
    <ConfirmDialog
      open={open}
      title="Record a payment"
      confirmLabel="Record payment"
      pending={record.isPending}
      error={problem}
      onClose={onClose}
      onConfirm={confirm}
    >
      A payment is never changed once recorded: a bounced one is reversed with a reason.
      <Stack spacing={2} sx={{ mt: 2 }}>
        <ClientFilterField
          emptyLabel="Choose a client"
          value={form.clientId}
          onChange={(clientId) => set({ clientId, invoiceId: "" })}
        />
        <TextField
          label="Received on"
          type="date"
          required
          value={form.receivedOn}
          onChange={(event) => set({ receivedOn: event.target.value })}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          label="Amount"
          required
          value={form.amount}
          onChange={(event) => set({ amount: event.target.value })}
          slotProps={{ htmlInput: { inputMode: "decimal" } }}
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
          label="Reference"
          value={form.reference}
          onChange={(event) => set({ reference: event.target.value })}
          helperText="Check number or bank reference"
        />
        <TextField label="Payer" value={form.payer} onChange={(event) => set({ payer: event.target.value })} />
        {form.clientId ? (
          <OpenInvoiceField
            clientId={form.clientId}
            value={form.invoiceId}
            onChange={(invoiceId) => set({ invoiceId })}
          />
        ) : null}
        {form.invoiceId ? (
          <TextField
            label="Amount to apply"
            value={form.applied}
            onChange={(event) => set({ applied: event.target.value })}
            helperText="The whole payment when empty"
          />
        ) : null}
      </Stack>
    </ConfirmDialog>
  );
}

/** Applies part of what is left of a payment to one of its client's open invoices; asks first. */
export function AllocatePaymentDialog({ payment, onClose }: { payment: PaymentSummary | null; onClose: () => void }) {
  const allocate = useAllocatePayment();
  const [invoiceId, setInvoiceId] = useState("");
  const [amount, setAmount] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  if (!payment) return null;
  const confirm = () => {
    if (!invoiceId || !amountPattern.test(amount)) {
      setProblem("Choose the invoice and an amount such as 600.00.");
      return;
    }
    allocate.mutate(
      { id: payment.id, allocations: [{ invoiceId, amount }] },
      {
        onSuccess: () => {
          setProblem(null);
          onClose();
        },
        onError: (error) => setProblem(apiErrorOf(error)?.message ?? String(error)),
      },
    );
  };
  return (
    <ConfirmDialog
      open
      title="Apply payment to an invoice?"
      confirmLabel="Apply"
      pending={allocate.isPending}
      error={problem}
      onClose={onClose}
      onConfirm={confirm}
    >
      {formatMoney(payment.unallocated, payment.currency)} of this payment is not yet applied.
      <Stack spacing={2} sx={{ mt: 2 }}>
        <OpenInvoiceField clientId={payment.client.id} value={invoiceId} onChange={setInvoiceId} />
        <TextField
          label="Amount to apply"
          required
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
        />
      </Stack>
    </ConfirmDialog>
  );
}

/** Reverses a bounced or returned payment with a reason; its allocations are reversed with it. Asks first. */
export function ReversePaymentDialog({ payment, onClose }: { payment: PaymentSummary | null; onClose: () => void }) {
  const reverse = useReversePayment();
  const [reason, setReason] = useState("");
  const [reversedOn, setReversedOn] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  if (!payment) return null;
  const confirm = () => {
    if (!reason.trim() || !reversedOn) {
      setProblem("Give the day and the reason (for example: returned, insufficient funds).");
      return;
    }
    reverse.mutate(
      { id: payment.id, reason, reversedOn },
      {
        onSuccess: () => {
          setProblem(null);
          onClose();
        },
        onError: (error) => setProblem(apiErrorOf(error)?.message ?? String(error)),
      },
    );
  };
  return (
    <ConfirmDialog
      open
      title="Reverse this payment?"
      confirmLabel="Reverse payment"
      pending={reverse.isPending}
      error={problem}
      onClose={onClose}
      onConfirm={confirm}
    >
      Reverses {formatMoney(payment.amount, payment.currency)} from {payment.client.name}; the invoices it paid are open
      again. The payment itself stays on record.
      <Stack spacing={2} sx={{ mt: 2 }}>
        <TextField
          label="Reversed on"
          type="date"
          required
          value={reversedOn}
          onChange={(event) => setReversedOn(event.target.value)}
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
  );
}
