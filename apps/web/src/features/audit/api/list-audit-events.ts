import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { type AuditPage, type AuditQuery, auditPageSchema, auditRoutes } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";

/** The audit log's filters as the API takes them; paging is added per request. */
export type AuditFilterQuery = Omit<AuditQuery, "limit" | "offset">;

/** Every query of the audit feature starts with this key. */
export const auditQueryKey = ["audit"] as const;

/** `GET /api/audit`: one page of events, newest first, filtered by the server. */
export function fetchAuditEvents(
  query: AuditFilterQuery & { limit: number; offset: number },
  signal?: AbortSignal,
): Promise<AuditPage> {
  return requestData("GET", apiPath(auditRoutes.listAuditEvents), auditPageSchema, { query, signal });
}

export function auditEventsQueryOptions(query: AuditFilterQuery & { limit: number; offset: number }) {
  return queryOptions({
    queryKey: [...auditQueryKey, "events", query] as const,
    queryFn: ({ signal }) => fetchAuditEvents(query, signal),
    // The previous page stays on screen while the next one loads, so the table does not jump.
    placeholderData: keepPreviousData,
  });
}

export function useAuditEvents(query: AuditFilterQuery & { limit: number; offset: number }) {
  return useQuery(auditEventsQueryOptions(query));
}
