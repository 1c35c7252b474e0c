import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { type DisclosureExportQuery, type DisclosurePage, disclosurePageSchema, reportRoutes } from "@vigil/contract";
import { requestData, requestFile } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { auditQueryKey } from "./list-audit-events";

/** One patient's filter (MRN, optionally a client and a range of days); paging is added per request. */
export type DisclosureFilter = DisclosureExportQuery;

/** `GET /api/audit/disclosures`: one page of the patient's disclosures, newest first. */
export function fetchDisclosures(
  query: DisclosureFilter & { limit: number; offset: number },
  signal?: AbortSignal,
): Promise<DisclosurePage> {
  return requestData("GET", apiPath(reportRoutes.listDisclosures), disclosurePageSchema, { query, signal });
}

export function disclosuresQueryOptions(query: DisclosureFilter & { limit: number; offset: number }) {
  return queryOptions({
    queryKey: [...auditQueryKey, "disclosures", query] as const,
    queryFn: ({ signal }) => fetchDisclosures(query, signal),
    placeholderData: keepPreviousData,
  });
}

/** Asks only once there is an MRN: the accounting is always one patient's. */
export function useDisclosures(query: (DisclosureFilter & { limit: number; offset: number }) | null) {
  return useQuery({
    ...disclosuresQueryOptions(query ?? { mrn: "", limit: 0, offset: 0 }),
    enabled: query !== null,
  });
}

/** `GET /api/audit/disclosures/export`: every row of the same filter as the server's CSV (its columns, its order). */
export function exportDisclosures(query: DisclosureFilter): Promise<Blob> {
  return requestFile("GET", apiPath(reportRoutes.exportDisclosures), "csv", { query });
}
