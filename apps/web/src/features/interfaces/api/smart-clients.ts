import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  type CreateSmartClient,
  routes,
  type SmartClient,
  type SmartClientList,
  type UpdateSmartClient,
} from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { profileKeys } from "./profile-keys";

/** Under the profile's key, so whatever refreshes the client's interface refreshes its hospital systems too. */
export const smartClientKeys = {
  list: (clientId: string) => [...profileKeys.profile(clientId), "fhir-systems"] as const,
};

/** `GET clients/{id}/fhir-systems`: the hospital systems registered for SMART Backend Services. */
export function smartClientsQueryOptions(clientId: string) {
  return queryOptions({
    queryKey: smartClientKeys.list(clientId),
    queryFn: ({ signal }): Promise<SmartClientList> =>
      requestData("GET", apiPath(routes.listSmartClients, { id: clientId }), routes.listSmartClients.response, {
        signal,
      }),
  });
}

export function useSmartClients(clientId: string) {
  return useQuery(smartClientsQueryOptions(clientId));
}

export type SaveSmartClientVariables =
  | { clientId: string; systemId?: undefined; input: CreateSmartClient }
  | { clientId: string; systemId: string; input: UpdateSmartClient };

/** Registers a system (POST) or changes one (PUT with `baseVersion`); 400 names fields, 409 a taken id or a stale base. */
export function saveSmartClient(variables: SaveSmartClientVariables): Promise<SmartClient> {
  if (variables.systemId === undefined) {
    return requestData(
      "POST",
      apiPath(routes.createSmartClient, { id: variables.clientId }),
      routes.createSmartClient.response,
      { body: variables.input, expectedStatuses: [400, 409] },
    );
  }
  return requestData(
    "PUT",
    apiPath(routes.updateSmartClient, { id: variables.clientId, systemId: variables.systemId }),
    routes.updateSmartClient.response,
    { body: variables.input, expectedStatuses: [400, 404, 409] },
  );
}

export function useSaveSmartClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveSmartClient,
    onSuccess: (_system, { clientId }) => queryClient.invalidateQueries({ queryKey: smartClientKeys.list(clientId) }),
  });
}
