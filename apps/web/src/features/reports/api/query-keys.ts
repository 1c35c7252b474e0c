import { sharedKeys } from "../../../api/query-keys";

/**
 * The reports feature's keys. A case's reports sit under the case's own key, so the interpretation writes that
 * refresh the case (signing, an addendum) refresh its reports too.
 */
export const reportKeys = {
  caseReports: (caseId: string) => [...sharedKeys.caseDetail(caseId), "reports"] as const,
  /** Outside the case's key on purpose: a change to the case must not read it again (each read is a disclosure). */
  document: (caseId: string, reportId: string) => ["report-document", caseId, reportId] as const,
  /** One link at a time (the page is remounted for another), so the token stays out of the key. */
  link: () => ["report-link"] as const,
};
