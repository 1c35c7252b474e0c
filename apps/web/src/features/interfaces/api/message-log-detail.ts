import { queryOptions, useQuery } from "@tanstack/react-query";
import { type Hl7MessageDetail, routes } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { messageLogKeys } from "./message-log-keys";

/** `GET /api/interfaces/hl7/messages/{id}`: the message with its segments and acknowledgement (audited). */
export function fetchHl7Message(messageId: string, signal?: AbortSignal): Promise<Hl7MessageDetail> {
  return requestData("GET", apiPath(routes.getHl7Message, { id: messageId }), routes.getHl7Message.response, {
    signal,
  });
}

export function hl7MessageQueryOptions(messageId: string) {
  return queryOptions({
    queryKey: messageLogKeys.detail(messageId),
    queryFn: ({ signal }) => fetchHl7Message(messageId, signal),
  });
}

export function useHl7Message(messageId: string) {
  return useQuery(hl7MessageQueryOptions(messageId));
}
