import { route } from "../route-definition.js";
import {
  billingExportAccountsSchema,
  billingExportFileSchema,
  billingExportListSchema,
  createBillingExportSchema,
  setBillingExportAccountsSchema,
} from "../schemas/billing-exports.js";

const tags = ["billing"];

/**
 * Exports for the accountant (BILLING.md "Exports for the accountant"): a period's invoices, credit notes and
 * payments as QuickBooks Desktop IIF or the CSV QuickBooks Online and Xero import, posted to the company's own
 * account names, each export kept with what it contained. They carry numbers, dates, amounts and case numbers only.
 */
export const billingExportRoutes = {
  getBillingExportAccounts: route({
    method: "GET",
    path: "/api/billing/export-accounts",
    summary: "The company's account names the exports post to (the defaults until someone sets them)",
    tags,
    access: "billing:read",
    response: billingExportAccountsSchema,
  }),
  setBillingExportAccounts: route({
    method: "PUT",
    path: "/api/billing/export-accounts",
    summary: "Set the account names the exports post to (names the version it replaces)",
    tags,
    access: "billing:write",
    body: setBillingExportAccountsSchema,
    response: billingExportAccountsSchema,
  }),
  listBillingExports: route({
    method: "GET",
    path: "/api/billing/exports",
    summary: "Exports made for the accountant, newest first, each with what it contained and what changed",
    tags,
    access: "billing:read",
    response: billingExportListSchema,
  }),
  createBillingExport: route({
    method: "POST",
    path: "/api/billing/exports",
    summary: "Export a period's invoices and credit notes as QuickBooks IIF or QuickBooks Online / Xero CSV",
    tags,
    access: "billing:write",
    body: createBillingExportSchema,
    response: billingExportFileSchema,
  }),
};
