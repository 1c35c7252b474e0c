import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type Client, clientRoutes, clientSchema } from "@vigil/contract";
import { sharedKeys } from "../../../api/query-keys";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { clientKeys } from "./query-keys";

/** `POST /continuous-monitoring/clients/{id}/restore`: brings an archived client back (administrators). */
export function restoreClient(clientId: string): Promise<Client> {
  return requestData("POST", apiPath(clientRoutes.restoreClient, { id: clientId }), clientSchema);
}

export function useRestoreClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: restoreClient,
    onSuccess: (client) => {
      queryClient.setQueryData(clientKeys.client(client.id), client);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: clientKeys.lists() }),
        // A restored client is back in every client picker.
        queryClient.invalidateQueries({ queryKey: sharedKeys.clientIds() }),
      ]);
    },
  });
}
