import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type Client, type ClientInput, clientRoutes, clientSchema } from "@vigil/contract";
import { sharedKeys } from "../../../api/query-keys";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { clientKeys } from "./query-keys";

/** `POST /continuous-monitoring/clients`: 400 names the fields, 409 says the code is taken (both shown in the form). */
export function createClient(input: ClientInput): Promise<Client> {
  return requestData("POST", apiPath(clientRoutes.createClient), clientSchema, {
    body: input,
    expectedStatuses: [400, 409],
  });
}

export function useCreateClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createClient,
    onSuccess: (client) => {
      queryClient.setQueryData(clientKeys.client(client.id), client);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: clientKeys.lists() }),
        // A new client is one more in every client picker.
        queryClient.invalidateQueries({ queryKey: sharedKeys.clientIds() }),
      ]);
    },
  });
}
