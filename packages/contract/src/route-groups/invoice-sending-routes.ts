import { route } from "../route-definition.js";
import { idParamsSchema } from "../schemas/common.js";
import {
  invoiceLinkInputSchema,
  invoiceSendingListSchema,
  invoiceSendingSchema,
  sendInvoiceInputSchema,
} from "../schemas/invoice-sending.js";
import { reportPdfSchema } from "../schemas/reports.js";

const tags = ["billing"];

/**
 * Invoices leaving Vigil by e-mail (BILLING.md "Sending invoices and reminders"): to the client's billing contacts,
 * each e-mail logged on the invoice. The log names contacts, not patients.
 */
export const invoiceSendingRoutes = {
  listInvoiceSendings: route({
    method: "GET",
    path: "/api/billing/invoices/:id/sendings",
    summary: "Every e-mail of an invoice and its reminders: when, by whom, to whom, and how it went",
    tags,
    access: "billing:read",
    params: idParamsSchema,
    response: invoiceSendingListSchema,
  }),
  sendInvoice: route({
    method: "POST",
    path: "/api/billing/invoices/:id/sendings",
    summary:
      "E-mail the invoice (again) to the client's billing contacts: the PDF as issued attached, or a one-time link",
    tags,
    access: "billing:write",
    params: idParamsSchema,
    body: sendInvoiceInputSchema,
    response: invoiceSendingSchema,
    successStatus: 201,
  }),
  downloadInvoiceLink: route({
    method: "POST",
    path: "/api/invoice-links/download",
    summary: "The invoice's PDF as issued, once per link (no account needed); 410 once used or expired",
    tags,
    access: "public",
    body: invoiceLinkInputSchema,
    response: reportPdfSchema,
    responseKind: "pdf",
  }),
};
