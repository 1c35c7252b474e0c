import Add from "@mui/icons-material/Add";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { type PaymentSummary, reversalRefusalOf } from "@vigil/contract";
import { useState } from "react";
import { useAccess } from "../../../components/access/access-context";
import { PageHeading } from "../../../components/layouts/page-heading";
import { ServerTable, type ServerTableColumn } from "../../../components/tables/server-table";
import { tableQueryProps, useTableSearch } from "../../../components/tables/use-table-search";
import { usePayments } from "../api/payments";
import { formatMoney } from "../billing-format";
import { paymentMethodLabels } from "../invoice-labels";
import { AllocatePaymentDialog, RecordPaymentDialog, ReversePaymentDialog } from "./payment-dialogs";
import { RefundPaymentDialog } from "./refund-payment-dialog";

type Acting = { kind: "allocate" | "reverse" | "refund"; payment: PaymentSummary } | null;

/**
 * "Reverse" as the server's rule allows it (`reversalRefusalOf`, the contract's): a refunded payment cannot bounce
 * as well, so its button is disabled and says why instead of leading to a refusal.
 */
function ReverseAction({ payment, onReverse }: { payment: PaymentSummary; onReverse: () => void }) {
  const refusal = reversalRefusalOf(payment);
  const whyId = `reverse-refused-${payment.id}`;
  if (!refusal) {
    return (
      <Button size="small" color="error" onClick={onReverse}>
        Reverse
      </Button>
    );
  }
  return (
    <Stack sx={{ alignItems: "flex-start" }}>
      <Button size="small" color="error" disabled aria-describedby={whyId}>
        Reverse
      </Button>
      <Typography id={whyId} variant="caption" color="text.secondary" sx={{ maxWidth: "22ch" }}>
        {refusal}
      </Typography>
    </Stack>
  );
}

function columnsFor(canWrite: boolean, act: (acting: Acting) => void): ServerTableColumn<PaymentSummary>[] {
  const columns: ServerTableColumn<PaymentSummary>[] = [
    {
      id: "received",
      header: "Received",
      cell: (row) => <span style={{ whiteSpace: "nowrap" }}>{row.receivedOn}</span>,
    },
    { id: "client", header: "Client", cell: (row) => row.client.name },
    { id: "method", header: "Method", cell: (row) => paymentMethodLabels[row.method] },
    { id: "reference", header: "Reference", cell: (row) => row.reference ?? "—" },
    { id: "amount", header: "Amount", align: "right", cell: (row) => formatMoney(row.amount, row.currency) },
    { id: "applied", header: "Applied", align: "right", cell: (row) => formatMoney(row.allocated, row.currency) },
    { id: "credit", header: "Unapplied", align: "right", cell: (row) => formatMoney(row.unallocated, row.currency) },
    {
      id: "state",
      header: "State",
      cell: (row) =>
        row.reversal ? (
          <Chip size="small" color="error" variant="outlined" label={`Reversed ${row.reversal.reversedOn}`} />
        ) : (
          "Received"
        ),
    },
  ];
  if (!canWrite) return columns;
  return [
    ...columns,
    {
      id: "actions",
      header: "Actions",
      cell: (row) =>
        row.reversal ? null : (
          <Stack direction="row" sx={{ gap: 1 }}>
            {Number(row.unallocated) > 0 ? (
              <Button size="small" onClick={() => act({ kind: "allocate", payment: row })}>
                Apply
              </Button>
            ) : null}
            {Number(row.unallocated) > 0 ? (
              <Button size="small" onClick={() => act({ kind: "refund", payment: row })}>
                Refund
              </Button>
            ) : null}
            <ReverseAction payment={row} onReverse={() => act({ kind: "reverse", payment: row })} />
          </Stack>
        ),
    },
  ];
}

/**
 * `/billing/payments`: payments received, newest first and paged by the server, with what each has applied and
 * what is left as credit; billing:write records, applies and reverses (each asked first, never an edit).
 */
export function BillingPaymentsPage() {
  const { can } = useAccess();
  const table = useTableSearch({ page: "0", size: "25" });
  const payments = usePayments(table.range);
  const [recording, setRecording] = useState(false);
  const [acting, setActing] = useState<Acting>(null);
  const canWrite = can("billing:write");
  return (
    <>
      <PageHeading>Payments</PageHeading>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Money received from clients and the invoices it paid. What is not applied is the client's credit.
      </Typography>
      {canWrite ? (
        <Stack direction="row" sx={{ mb: 2 }}>
          <Button variant="contained" startIcon={<Add />} onClick={() => setRecording(true)}>
            Record payment
          </Button>
        </Stack>
      ) : null}
      <ServerTable
        label="Payments"
        columns={columnsFor(canWrite, setActing)}
        rowKey={(row) => row.id}
        {...table.pager}
        {...tableQueryProps(payments)}
        errorMessage="The payments could not be loaded."
        emptyMessage="No payment has been recorded yet."
      />
      {recording ? <RecordPaymentDialog open onClose={() => setRecording(false)} /> : null}
      <AllocatePaymentDialog
        payment={acting?.kind === "allocate" ? acting.payment : null}
        onClose={() => setActing(null)}
      />
      <RefundPaymentDialog
        payment={acting?.kind === "refund" ? acting.payment : null}
        onClose={() => setActing(null)}
      />
      <ReversePaymentDialog
        payment={acting?.kind === "reverse" ? acting.payment : null}
        onClose={() => setActing(null)}
      />
    </>
  );
}
