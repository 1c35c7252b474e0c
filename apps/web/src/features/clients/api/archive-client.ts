import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type Client, clientRoutes, clientSchema } from "@vigil/contract";
import { sharedKeys } from "../../../api/query-keys";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { clientKeys } from "./query-keys";

/** `DELETE /continuous-monitoring/clients/{id}`: archives (reversible); 409 while the client has open cases. */
export function archiveClient(clientId: string): Promise<Client> {
  return requestData("DELETE", apiPath(clientRoutes.archiveClient, { id: clientId }), clientSchema, {
    // The refusal is explained in the confirmation dialog.
    expectedStatuses: [409],
  });
}

export function useArchiveClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: archiveClient,
    onSuccess: (client) => {
      queryClient.setQueryData(clientKeys.client(client.id), client);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: clientKeys.lists() }),
        // An archived client leaves every client picker.
        queryClient.invalidateQueries({ queryKey: sharedKeys.clientIds() }),
      ]);
    },
  });
}
