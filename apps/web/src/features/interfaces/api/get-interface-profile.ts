import { queryOptions, useQuery } from "@tanstack/react-query";
import { type InterfaceProfile, routes } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { profileKeys } from "./profile-keys";

/** `GET /continuous-monitoring/clients/{id}/interface-profile`: the current revision and the history, newest first. */
export function fetchInterfaceProfile(clientId: string, signal?: AbortSignal): Promise<InterfaceProfile> {
  return requestData(
    "GET",
    apiPath(routes.getInterfaceProfile, { id: clientId }),
    routes.getInterfaceProfile.response,
    { signal },
  );
}

export function interfaceProfileQueryOptions(clientId: string) {
  return queryOptions({
    queryKey: profileKeys.profile(clientId),
    queryFn: ({ signal }) => fetchInterfaceProfile(clientId, signal),
  });
}

export function useInterfaceProfile(clientId: string) {
  return useQuery(interfaceProfileQueryOptions(clientId));
}
