import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type Client, type ClientInput, clientRoutes, clientSchema } from "@vigil/contract";
import { sharedKeys } from "../../../api/query-keys";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { ifMatch } from "../../../lib/if-match";
import { clientKeys } from "./query-keys";

export type UpdateClientVariables = { clientId: string; version: number; input: ClientInput };

/**
 * `PUT /continuous-monitoring/clients/{id}` with `If-Match` = the version the user started editing from.
 * 412 means someone saved first (`details.current` is their version); the form handles it, never overwrites.
 */
export function updateClient({ clientId, version, input }: UpdateClientVariables): Promise<Client> {
  return requestData("PUT", apiPath(clientRoutes.updateClient, { id: clientId }), clientSchema, {
    body: input,
    headers: ifMatch(version),
    expectedStatuses: [400, 409, 412],
  });
}

export function useUpdateClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateClient,
    onSuccess: (client) => {
      queryClient.setQueryData(clientKeys.client(client.id), client);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: clientKeys.lists() }),
        // Its name and code are in every client picker, and the breadcrumbs name it.
        queryClient.invalidateQueries({ queryKey: sharedKeys.clientIds() }),
        queryClient.invalidateQueries({ queryKey: sharedKeys.breadcrumbs() }),
      ]);
    },
  });
}
