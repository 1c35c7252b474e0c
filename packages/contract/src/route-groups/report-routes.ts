import { route } from "../route-definition.js";
import { idParamsSchema } from "../schemas/common.js";
import {
  disclosureCsvSchema,
  disclosureExportQuerySchema,
  disclosurePageSchema,
  disclosureQuerySchema,
  fhirDiagnosticReportSchema,
  reportDocumentSchema,
  reportLinkInputSchema,
  reportLinkViewSchema,
  reportListSchema,
  reportParamsSchema,
  reportPdfSchema,
  reportVersionSchema,
  resendReportInputSchema,
} from "../schemas/reports.js";

const base = "/api/continuous-monitoring/cases/:id/reports";
const tags = ["reports"];

/**
 * The signed report leaving Vigil: a case's report versions with their deliveries, the stored PDF, the FHIR R4
 * DiagnosticReport and the printable page's content (each fetch is a disclosure), re-sending, the one-time download link's two public calls (the
 * token in the body, never in a logged URL), and the administrators' accounting of disclosures per patient.
 */
export const reportRoutes = {
  listCaseReports: route({
    method: "GET",
    path: base,
    summary: "Every version of the case's signed reports, newest first, with to whom each went and when it was opened",
    tags,
    access: "cases:read",
    patientData: true,
    params: idParamsSchema,
    response: reportListSchema,
  }),
  getReportPdf: route({
    method: "GET",
    path: `${base}/:reportId/pdf`,
    summary: "The version's PDF exactly as stored when it was signed (a disclosure: recorded per patient)",
    tags,
    access: "cases:read",
    patientData: true,
    params: reportParamsSchema,
    response: reportPdfSchema,
    responseKind: "pdf",
  }),
  getReportFhir: route({
    method: "GET",
    path: `${base}/:reportId/fhir`,
    summary: "The version as a FHIR R4 DiagnosticReport with the PDF as its presentedForm (a disclosure)",
    tags,
    access: "cases:read",
    patientData: true,
    params: reportParamsSchema,
    response: fhirDiagnosticReportSchema,
    responseKind: "fhir-json",
  }),
  getReportDocument: route({
    method: "GET",
    path: `${base}/:reportId/document`,
    summary: "The version's content in reading order, as its PDF says it, for the printable page (a disclosure)",
    tags,
    access: "cases:read",
    patientData: true,
    params: reportParamsSchema,
    response: reportDocumentSchema,
  }),
  resendReport: route({
    method: "POST",
    path: `${base}/:reportId/deliveries`,
    summary: "E-mails a new one-time download link for this version to each named contact of the case's client",
    tags,
    access: "reports:send",
    patientData: true,
    params: reportParamsSchema,
    body: resendReportInputSchema,
    response: reportVersionSchema,
    successStatus: 201,
  }),
  lookUpReportLink: route({
    method: "POST",
    path: "/api/report-links/lookup",
    summary: "What the holder of a report download link is about to receive (no account needed; does not spend it)",
    tags,
    access: "public",
    body: reportLinkInputSchema,
    response: reportLinkViewSchema,
  }),
  downloadReportLink: route({
    method: "POST",
    path: "/api/report-links/download",
    summary: "The report's PDF, once per link (no account needed); 410 once used or expired",
    tags,
    access: "public",
    body: reportLinkInputSchema,
    response: reportPdfSchema,
    responseKind: "pdf",
  }),
  listDisclosures: route({
    method: "GET",
    path: "/api/audit/disclosures",
    summary: "One patient's accounting of disclosures (by MRN): every delivery, download and export of their reports",
    tags,
    access: "audit:read",
    patientData: true,
    querystring: disclosureQuerySchema,
    response: disclosurePageSchema,
  }),
  exportDisclosures: route({
    method: "GET",
    path: "/api/audit/disclosures/export",
    summary: "The same accounting of disclosures, every row, as CSV",
    tags,
    access: "audit:read",
    patientData: true,
    querystring: disclosureExportQuerySchema,
    response: disclosureCsvSchema,
    responseKind: "csv",
  }),
} as const;
