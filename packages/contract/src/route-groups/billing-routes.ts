import { route } from "../route-definition.js";
import {
  billableHoursQuerySchema,
  billableHoursReportSchema,
  billingCheckSchema,
  billingClientMonthParamsSchema,
  billingOverviewQuerySchema,
  billingOverviewSchema,
  billingStatementSchema,
  clientMonthRateSchema,
  issueAdjustmentRequestSchema,
  issuedStatementSchema,
  setRateRequestSchema,
} from "../schemas/billing.js";
import { idParamsSchema, ifMatchHeadersSchema } from "../schemas/common.js";
import { invoiceSchema } from "../schemas/invoices.js";

const billing = "/api/billing/continuous-monitoring";

/**
 * Billing and reporting (PRODUCT.md §5, spec §7). Hours are the billable time logs of a client's cases clipped to
 * the period in the client's time zone. Statements and the billing check name cases and patients, so they are
 * patient data (audited); the overview and the report carry only totals.
 */
export const billingRoutes = {
  listBillingMonths: route({
    method: "GET",
    path: billing,
    summary: "Clients × months with billable hours, the applied rate (own or inherited), amount and case count",
    tags: ["billing"],
    access: "billing:read",
    querystring: billingOverviewQuerySchema,
    response: billingOverviewSchema,
  }),
  getBillingStatement: route({
    method: "GET",
    path: `${billing}/:client/:month`,
    summary: "A client's monthly statement: every case with its hours, amount and CPT suggestions, and the totals",
    tags: ["billing"],
    access: "billing:read",
    patientData: true,
    params: billingClientMonthParamsSchema,
    response: billingStatementSchema,
  }),
  issueBillingStatement: route({
    method: "POST",
    path: `${billing}/:client/:month/statement`,
    summary:
      "Issue the month's statement: numbered per client and frozen as shown (If-Match: the statement's ETag); a repeat answers the same statement",
    tags: ["billing"],
    access: "billing:write",
    patientData: true,
    params: billingClientMonthParamsSchema,
    headers: ifMatchHeadersSchema,
    response: issuedStatementSchema,
    successStatus: 201,
  }),
  issueStatementAdjustment: route({
    method: "POST",
    path: `${billing}/:client/:month/adjustment`,
    summary:
      "Carry the month's differences since its invoice onto a numbered supplementary invoice (more to bill) or credit note (less), with a reason (If-Match: the statement's ETag)",
    tags: ["billing"],
    access: "billing:write",
    patientData: true,
    params: billingClientMonthParamsSchema,
    headers: ifMatchHeadersSchema,
    body: issueAdjustmentRequestSchema,
    response: invoiceSchema,
    successStatus: 201,
  }),
  setBillingRate: route({
    method: "POST",
    path: `${billing}/:client/:month/rate`,
    summary: "Set a client's hourly rate for a month (names the version it replaces; a reason once invoiced)",
    tags: ["billing"],
    access: "billing:write",
    params: billingClientMonthParamsSchema,
    body: setRateRequestSchema,
    response: clientMonthRateSchema,
  }),
  getBillingCheck: route({
    method: "GET",
    path: "/api/continuous-monitoring/cases/:id/billing-check",
    summary:
      "The billing check of reviewed → closed for one case: running logs, rates known, CPT warnings acknowledged",
    tags: ["billing"],
    access: "records:billing-notes",
    patientData: true,
    params: idParamsSchema,
    response: billingCheckSchema,
  }),
  getBillableHoursReport: route({
    method: "GET",
    path: "/api/reporting/continuous-monitoring/billable-hours",
    summary: "Billable hours for a period, grouped by day, week, month, client or technologist",
    tags: ["reporting"],
    access: "reporting:read",
    querystring: billableHoursQuerySchema,
    response: billableHoursReportSchema,
  }),
};
