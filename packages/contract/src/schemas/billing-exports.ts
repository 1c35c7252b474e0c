import { z } from "zod";
import { calendarDateSchema, idSchema, isoDateTimeSchema, orderedRange } from "./common.js";

/**
 * Exports for the accountant (BILLING.md "Exports for the accountant"): a period's invoices and credit notes as a
 * QuickBooks Desktop IIF file or as the CSV QuickBooks Online or Xero imports, posted to the company's own account
 * names; each export is kept with what it contained.
 */
export const billingExportFormats = ["iif", "quickbooks-online-csv", "xero-csv"] as const;
export const billingExportFormatSchema = z.enum(billingExportFormats);
export type BillingExportFormat = z.infer<typeof billingExportFormatSchema>;

const accountName = z.string().trim().min(1, "is required").max(100);

/** Vigil's items → the company's chart of accounts. */
export const billingExportAccountsContentSchema = z.object({
  /** The QuickBooks item (product/service) the monitoring lines are sold as. */
  serviceItem: accountName,
  /** Income from the monitoring service. */
  incomeAccount: accountName,
  /** Where credit notes post (often the same income account, or a returns and allowances account). */
  creditNotesAccount: accountName,
  /** Accounts receivable. */
  receivablesAccount: accountName,
  /** Payments received and not yet deposited. */
  undepositedFundsAccount: accountName,
  /** Sales tax payable. */
  taxAccount: accountName,
  /** Xero's tax type on lines (e.g. "Tax Exempt", "Tax on Sales"). */
  taxType: accountName,
});
export type BillingExportAccountsContent = z.infer<typeof billingExportAccountsContentSchema>;

export const billingExportAccountsSchema = billingExportAccountsContentSchema.extend({
  /** null while the defaults apply (nothing stored yet). */
  version: z.number().int().min(1).nullable(),
});
export type BillingExportAccounts = z.infer<typeof billingExportAccountsSchema>;

export const setBillingExportAccountsSchema = billingExportAccountsContentSchema.extend({
  /** The version the user saw (null for the defaults); a stale one is refused (409). */
  baseVersion: z.number().int().min(1).nullable(),
});
export type SetBillingExportAccounts = z.input<typeof setBillingExportAccountsSchema>;

/** One document as an export carried it; `fingerprint` changes when what was exported for it changes. */
export const billingExportDocumentSchema = z.object({
  id: idSchema,
  number: z.string(),
  kind: z.string(),
  issueDate: calendarDateSchema,
  total: z.string(),
  fingerprint: z.string(),
});
export type BillingExportDocument = z.infer<typeof billingExportDocumentSchema>;

/** Against the previous export of the same period: documents new in it, changed, and gone from it. */
export const billingExportChangesSchema = z.object({
  previousExportId: idSchema,
  added: z.array(z.string()),
  changed: z.array(z.string()),
  removed: z.array(z.string()),
});
export type BillingExportChanges = z.infer<typeof billingExportChangesSchema>;

export const billingExportSchema = z.object({
  id: idSchema,
  from: calendarDateSchema,
  to: calendarDateSchema,
  format: billingExportFormatSchema,
  documents: z.array(billingExportDocumentSchema),
  /** null for the first export of the period. */
  changes: billingExportChangesSchema.nullable(),
  createdAt: isoDateTimeSchema,
  createdBy: z.string(),
});
export type BillingExport = z.infer<typeof billingExportSchema>;

export const billingExportListSchema = z.object({ items: z.array(billingExportSchema) });
export type BillingExportList = z.infer<typeof billingExportListSchema>;

/** `POST /billing/exports`: a period of issue dates (inclusive) and a format. */
export const createBillingExportSchema = orderedRange(
  z.object({ from: calendarDateSchema, to: calendarDateSchema, format: billingExportFormatSchema }),
  { from: "from", to: "to" },
);
export type CreateBillingExport = z.input<typeof createBillingExportSchema>;

/** The export's file as text: IIF (tab-separated) or CSV, with the export's id for its history. */
export const billingExportFileSchema = z.object({
  export: billingExportSchema,
  fileName: z.string(),
  contentType: z.string(),
  content: z.string(),
});
export type BillingExportFile = z.infer<typeof billingExportFileSchema>;

export const billingExportParamsSchema = z.object({ id: idSchema });
