import { route } from "../route-definition.js";
import { idParamsSchema } from "../schemas/common.js";
import {
  clientBillingProfileParamsSchema,
  clientBillingProfileSchema,
  invoiceCsvSchema,
  invoiceExportQuerySchema,
  invoiceListQuerySchema,
  invoicePageSchema,
  invoicePdfSchema,
  invoiceSchema,
  setClientBillingProfileSchema,
} from "../schemas/invoices.js";

const invoices = "/api/billing/invoices";
const tags = ["billing"];

/**
 * Invoices (BILLING.md "Invoices"): issued with a month's statement, read, printed, downloaded as the PDF kept at
 * issue, listed and exported. An invoice names patients only when the client's profile asks, so reading one is
 * patient data (audited) like the statement; the list and its CSV carry only numbers and sums.
 */
export const invoiceRoutes = {
  listInvoices: route({
    method: "GET",
    path: invoices,
    summary: "Issued invoices, credit notes and supplementary invoices, newest first, filtered and paged",
    tags,
    access: "billing:read",
    querystring: invoiceListQuerySchema,
    response: invoicePageSchema,
  }),
  exportInvoices: route({
    method: "GET",
    path: `${invoices}/export`,
    summary: "The same list, every row the filters match, as CSV",
    tags,
    access: "billing:read",
    querystring: invoiceExportQuerySchema,
    response: invoiceCsvSchema,
    responseKind: "csv",
  }),
  getInvoice: route({
    method: "GET",
    path: `${invoices}/:id`,
    summary: "One invoice as issued: bill-to, dates, lines, tax and totals, and its derived status",
    tags,
    access: "billing:read",
    patientData: true,
    auditTarget: "invoice",
    params: idParamsSchema,
    response: invoiceSchema,
  }),
  getInvoicePdf: route({
    method: "GET",
    path: `${invoices}/:id/pdf`,
    summary: "The invoice's PDF, byte for byte as issued (its SHA-256 is the invoice's pdfSha256)",
    tags,
    access: "billing:read",
    patientData: true,
    auditTarget: "invoice",
    params: idParamsSchema,
    response: invoicePdfSchema,
    responseKind: "pdf",
  }),
  getClientBillingProfile: route({
    method: "GET",
    path: "/api/billing/clients/:client/profile",
    summary: "How a client is invoiced: legal name, PO number, payment terms, tax rate, patient names on lines",
    tags,
    access: "billing:read",
    params: clientBillingProfileParamsSchema,
    response: clientBillingProfileSchema,
  }),
  setClientBillingProfile: route({
    method: "PUT",
    path: "/api/billing/clients/:client/profile",
    summary: "Set how a client is invoiced (names the version it replaces); invoices already issued keep theirs",
    tags,
    access: "billing:write",
    params: clientBillingProfileParamsSchema,
    body: setClientBillingProfileSchema,
    response: clientBillingProfileSchema,
  }),
};
