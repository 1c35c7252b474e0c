import { reportRoutes } from "@vigil/contract";
import { requestFile } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";

/**
 * `GET …/reports/{reportId}/pdf`: the version's PDF exactly as stored when it was signed. Each fetch is a disclosure
 * the server records, so it is made only when someone asks, and never cached.
 */
export function fetchReportPdf(caseId: string, reportId: string): Promise<Blob> {
  return requestFile("GET", apiPath(reportRoutes.getReportPdf, { id: caseId, reportId }), "pdf");
}

/** `GET …/reports/{reportId}/fhir`: the version as a FHIR R4 DiagnosticReport with the PDF inside (a disclosure). */
export function fetchReportFhir(caseId: string, reportId: string): Promise<Blob> {
  return requestFile("GET", apiPath(reportRoutes.getReportFhir, { id: caseId, reportId }), "fhir-json");
}
