import Box from "@mui/material/Box";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { Invoice, InvoiceAllocationEntry } from "@vigil/contract";
import { type ReactNode, useId } from "react";
import { QueryError } from "../../../components/feedback/query-error";
import { ScrollRegion } from "../../../components/tables/scroll-region";
import { useInvoiceAllocations } from "../api/invoice-allocations";
import { formatMoney } from "../billing-format";
import { paymentMethodLabels } from "../invoice-labels";

function whatOf(entry: InvoiceAllocationEntry): string {
  const because = entry.reason ? `: ${entry.reason}` : "";
  switch (entry.kind) {
    case "allocation":
      return entry.payment && entry.payment.receivedOn !== entry.date
        ? `Payment received ${entry.payment.receivedOn}`
        : "Payment";
    case "allocation-reversal":
      return `Payment reversed${because}`;
    case "credit-note":
      return `Credit note ${entry.document ?? ""}${because}`;
    case "write-off":
      return `Written off${because}`;
  }
}

const headers = ["Date", "What", "Payer", "Method", "Reference", "Amount", "Amount due"];

/**
 * The payments and credits applied to an invoice (BILLING.md "Payments and receivables"), in date order with the
 * amount due after each. Dates are the client's calendar days, as the ledger records them; amounts as the server
 * computed them. Not part of the document as issued, so it is left off the print.
 */
export function InvoiceAllocations({ invoice }: { invoice: Invoice }) {
  const allocations = useInvoiceAllocations(invoice.id);
  const headingId = useId();
  let content: ReactNode;
  if (allocations.isError) {
    content = (
      <QueryError
        what="The payments of this invoice"
        error={allocations.error}
        onRetry={() => void allocations.refetch()}
      />
    );
  } else if (allocations.isPending) {
    content = <Typography color="text.secondary">Loading…</Typography>;
  } else if (allocations.data.entries.length === 0) {
    content = (
      <Typography color="text.secondary">
        Nothing paid or credited yet: {formatMoney(allocations.data.amountDue, allocations.data.currency)} due.
      </Typography>
    );
  } else {
    const { currency, entries } = allocations.data;
    content = (
      <ScrollRegion label="Payments and credits" sx={{ my: 1 }}>
        <Table size="small">
          <Box component="caption" sx={{ captionSide: "top", textAlign: "left", fontWeight: 600, p: 0, pb: 1 }}>
            Payments and credits applied to {invoice.number}
          </Box>
          <TableHead>
            <TableRow>
              {headers.map((header, index) => (
                <TableCell key={header} sx={{ fontWeight: 600 }} align={index >= 5 ? "right" : "left"}>
                  {header}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {entries.map((entry, index) => (
              <TableRow key={`${entry.recordedAt}-${index}`}>
                <TableCell sx={{ whiteSpace: "nowrap" }}>{entry.date}</TableCell>
                <TableCell>{whatOf(entry)}</TableCell>
                <TableCell>{entry.payment?.payer ?? "—"}</TableCell>
                <TableCell>{entry.payment ? paymentMethodLabels[entry.payment.method] : "—"}</TableCell>
                <TableCell>{entry.payment?.reference ?? "—"}</TableCell>
                <TableCell align="right">{formatMoney(entry.amount, currency)}</TableCell>
                <TableCell align="right">{formatMoney(entry.amountDue, currency)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </ScrollRegion>
    );
  }
  return (
    <Box component="section" aria-labelledby={headingId} className="vigil-no-print" sx={{ mt: 3 }}>
      <Typography id={headingId} variant="h6" component="h2">
        Payments and credits
      </Typography>
      {content}
    </Box>
  );
}
