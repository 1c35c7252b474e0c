import Send from "@mui/icons-material/Send";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { InvoiceSending } from "@vigil/contract";
import { useAccess } from "../../../components/access/access-context";
import { QueryError } from "../../../components/feedback/query-error";
import { apiErrorOf } from "../../../components/forms/field-messages";
import { useInvoiceSendings, useSendInvoice } from "../api/invoice-sendings";

const statusText: Record<InvoiceSending["status"], string> = {
  pending: "On its way",
  sent: "Sent",
  failed: "Failed",
  withdrawn: "Withdrawn",
};

function whatOf(sending: InvoiceSending): string {
  if (sending.purpose === "reminder") return `Reminder, ${sending.reminderDays} days overdue`;
  return sending.trigger === "on-issue" ? "Sent on issue" : "Sent by hand";
}

/** "PDF attached", or the link's state: opened when, or until when it works. */
function howOf(sending: InvoiceSending): string {
  if (sending.delivery === "attachment") return "PDF attached";
  if (sending.linkOpenedAt) return `Link, opened ${when(sending.linkOpenedAt)}`;
  return sending.linkExpiresAt ? `Link, unopened, works until ${when(sending.linkExpiresAt)}` : "Link";
}

function when(instant: string): string {
  return new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }).format(new Date(instant));
}

/**
 * Who received the invoice by e-mail (BILLING.md "Sending invoices and reminders"): each sending and reminder with
 * who asked, when, to whom, how (attached, or a one-time link and whether it was opened) and how it went; "Send to
 * billing contacts" e-mails it (again) as the client's billing profile says.
 */
export function InvoiceSendings({ invoiceId }: { invoiceId: string }) {
  const { can } = useAccess();
  const sendings = useInvoiceSendings(invoiceId);
  const send = useSendInvoice(invoiceId);
  const items = sendings.data?.items ?? [];
  return (
    <Box component="section" aria-labelledby="invoice-sendings-heading" className="vigil-no-print" sx={{ mt: 3 }}>
      <Typography id="invoice-sendings-heading" variant="h6" component="h2">
        E-mails to the client
      </Typography>
      {can("billing:write") ? (
        <Button
          variant="outlined"
          startIcon={<Send />}
          sx={{ my: 1 }}
          disabled={send.isPending}
          onClick={() => send.mutate()}
        >
          {items.length > 0 ? "Send again to billing contacts" : "Send to billing contacts"}
        </Button>
      ) : null}
      {send.isError ? (
        <Alert severity="error" sx={{ my: 1 }}>
          Not sent: {apiErrorOf(send.error)?.message ?? String(send.error)}
        </Alert>
      ) : null}
      {sendings.isError ? (
        <QueryError what="The e-mails of this invoice" error={sendings.error} onRetry={() => void sendings.refetch()} />
      ) : sendings.isPending ? (
        <Typography color="text.secondary">Loading…</Typography>
      ) : items.length === 0 ? (
        <Typography color="text.secondary">Not e-mailed yet.</Typography>
      ) : (
        <Table size="small" aria-label="E-mails of this invoice">
          <TableHead>
            <TableRow>
              <TableCell>When</TableCell>
              <TableCell>What</TableCell>
              <TableCell>By</TableCell>
              <TableCell>To</TableCell>
              <TableCell>How</TableCell>
              <TableCell>Outcome</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {items.map((sending) => (
              <TableRow key={sending.id}>
                <TableCell>{when(sending.finishedAt ?? sending.requestedAt)}</TableCell>
                <TableCell>{whatOf(sending)}</TableCell>
                <TableCell>{sending.requestedBy.name ?? sending.requestedBy.username}</TableCell>
                <TableCell>
                  {sending.recipients.map((recipient) => `${recipient.name} <${recipient.email}>`).join(", ")}
                </TableCell>
                <TableCell>{howOf(sending)}</TableCell>
                <TableCell>
                  {statusText[sending.status]}
                  {sending.lastError ? ` (${sending.lastError})` : ""}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Box>
  );
}
