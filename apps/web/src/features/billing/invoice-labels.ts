import type { InvoiceKind, InvoiceStatus } from "@vigil/contract";

export const invoiceKindLabels: Record<InvoiceKind, string> = {
  invoice: "Invoice",
  supplementary: "Supplementary invoice",
  "credit-note": "Credit note",
};

export const invoiceStatusLabels: Record<InvoiceStatus, string> = {
  issued: "Issued",
  overdue: "Overdue",
};
