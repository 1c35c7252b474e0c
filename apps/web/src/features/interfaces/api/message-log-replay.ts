import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type Hl7MessageDetail, routes } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { messageLogKeys } from "./message-log-keys";

/**
 * `POST /api/interfaces/hl7/messages/{id}/replay` (audited): an inbound message is processed again as a new row of
 * the log; the answer is that row. A refusal (409: nothing to replay, or not possible for this message) is shown in
 * the dialog, not in the page's error list.
 */
export function replayHl7Message(messageId: string): Promise<Hl7MessageDetail> {
  return requestData("POST", apiPath(routes.replayHl7Message, { id: messageId }), routes.replayHl7Message.response, {
    expectedStatuses: [404, 409],
  });
}

export function useReplayHl7Message() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: replayHl7Message,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messageLogKeys.all() }),
  });
}
