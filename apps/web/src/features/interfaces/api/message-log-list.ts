import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { type Hl7MessageListQuery, routes } from "@vigil/contract";
import type { z } from "zod";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { messageLogKeys } from "./message-log-keys";

/** The log's filters as the API takes them; paging is added per request. */
export type MessageLogFilterQuery = Omit<Hl7MessageListQuery, "limit" | "offset">;
type PagedQuery = MessageLogFilterQuery & { limit: number; offset: number };

const messagePageSchema = routes.listHl7Messages.response;
export type MessageLogPage = z.infer<typeof messagePageSchema>;

/** `GET /api/interfaces/hl7/messages`: one page, newest first, filtered by the server (audited as a patient-data read). */
export function fetchHl7Messages(query: PagedQuery, signal?: AbortSignal): Promise<MessageLogPage> {
  return requestData("GET", apiPath(routes.listHl7Messages), messagePageSchema, { query, signal });
}

export function hl7MessagesQueryOptions(query: PagedQuery) {
  return queryOptions({
    queryKey: messageLogKeys.list(query),
    queryFn: ({ signal }) => fetchHl7Messages(query, signal),
    // The previous page stays on screen while the next one loads, so the table does not jump.
    placeholderData: keepPreviousData,
  });
}

export function useHl7Messages(query: PagedQuery) {
  return useQuery(hl7MessagesQueryOptions(query));
}
