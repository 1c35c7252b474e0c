import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  type ClientBillingProfile,
  clientBillingProfileSchema,
  routes,
  type SetClientBillingProfile,
} from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { billingKeys } from "./query-keys";

/** `GET /billing/clients/{client}/profile`: how the client is invoiced (the defaults until someone sets them). */
export function fetchBillingProfile(clientId: string, signal?: AbortSignal): Promise<ClientBillingProfile> {
  return requestData("GET", apiPath(routes.getClientBillingProfile, { client: clientId }), clientBillingProfileSchema, {
    signal,
  });
}

export function billingProfileQueryOptions(clientId: string) {
  return queryOptions({
    queryKey: billingKeys.profile(clientId),
    queryFn: ({ signal }) => fetchBillingProfile(clientId, signal),
  });
}

export function useBillingProfile(clientId: string, options: { enabled?: boolean } = {}) {
  return useQuery({ ...billingProfileQueryOptions(clientId), enabled: options.enabled ?? true });
}

export type SetBillingProfileVariables = { clientId: string; input: SetClientBillingProfile };

/**
 * `PUT /billing/clients/{client}/profile`, naming the version the user saw: a stale one is a 409 with
 * `details.current`, a bad field a 400. The form shows both, so they stay off the shared error list.
 */
export function setBillingProfile({ clientId, input }: SetBillingProfileVariables): Promise<ClientBillingProfile> {
  return requestData("PUT", apiPath(routes.setClientBillingProfile, { client: clientId }), clientBillingProfileSchema, {
    body: input,
    expectedStatuses: [400, 409],
  });
}

export function useSetBillingProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setBillingProfile,
    onSuccess: (saved) => queryClient.setQueryData(billingKeys.profile(saved.clientId), saved),
  });
}
