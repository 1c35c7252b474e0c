import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type InterfaceTestResult, routes } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { messageLogKeys } from "./message-log-keys";

/**
 * `POST /continuous-monitoring/clients/{id}/interface-profile/test-message`: sends the harmless message and answers
 * what the hospital's system said (a failure to reach it is an answer too, not an error). 409: no destination.
 */
export function sendInterfaceTestMessage(clientId: string): Promise<InterfaceTestResult> {
  return requestData(
    "POST",
    apiPath(routes.sendInterfaceTestMessage, { id: clientId }),
    routes.sendInterfaceTestMessage.response,
    { expectedStatuses: [409] },
  );
}

export function useSendInterfaceTestMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendInterfaceTestMessage,
    // The test message is a row of the message log.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messageLogKeys.all() }),
  });
}
