import type { InvoiceKind, InvoiceStatus, PaymentMethod } from "@vigil/contract";

export const invoiceKindLabels: Record<InvoiceKind, string> = {
  invoice: "Invoice",
  supplementary: "Supplementary invoice",
  "credit-note": "Credit note",
};

export const invoiceStatusLabels: Record<InvoiceStatus, string> = {
  issued: "Issued",
  "partly-paid": "Partly paid",
  paid: "Paid",
  overdue: "Overdue",
  "written-off": "Written off",
};

/** The chip colour of each status: overdue asks for attention, paid and written off are settled. */
export const invoiceStatusColours: Record<InvoiceStatus, "default" | "info" | "success" | "error" | "warning"> = {
  issued: "default",
  "partly-paid": "info",
  paid: "success",
  overdue: "error",
  "written-off": "warning",
};

export const paymentMethodLabels: Record<PaymentMethod, string> = {
  check: "Check",
  ach: "ACH transfer",
  wire: "Wire transfer",
  card: "Card",
  cash: "Cash",
  other: "Other",
};
