import { Chip } from "@mui/material";
import type { InvoiceStatus } from "@vigil/contract";
import { invoiceStatusColours, invoiceStatusLabels } from "../invoice-labels";

/** An invoice's derived status (BILLING.md "Invoice status") as a chip: the label is the text, colour only adds. */
export function InvoiceStatusChip({ status }: { status: InvoiceStatus }) {
  return (
    <Chip size="small" variant="outlined" label={invoiceStatusLabels[status]} color={invoiceStatusColours[status]} />
  );
}
