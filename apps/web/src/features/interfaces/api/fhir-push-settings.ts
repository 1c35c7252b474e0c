import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FhirPushSettingsInput, type FhirPushSettingsView, routes } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { profileKeys } from "./profile-keys";

/** Under the profile's key, so whatever refreshes the client's interface refreshes its FHIR push too. */
export const fhirPushKeys = {
  settings: (clientId: string) => [...profileKeys.profile(clientId), "fhir-push"] as const,
};

/** `GET clients/{id}/fhir-push`: where signed reports are pushed, and Vigil's JWKS URL to register there. */
export function useFhirPushSettings(clientId: string) {
  return useQuery(
    queryOptions({
      queryKey: fhirPushKeys.settings(clientId),
      queryFn: ({ signal }): Promise<FhirPushSettingsView> =>
        requestData("GET", apiPath(routes.getFhirPushSettings, { id: clientId }), routes.getFhirPushSettings.response, {
          signal,
        }),
    }),
  );
}

/** `PUT clients/{id}/fhir-push` on `baseVersion`; 400 names fields, 409 a stale base. */
export function useSaveFhirPushSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ clientId, input }: { clientId: string; input: FhirPushSettingsInput }) =>
      requestData(
        "PUT",
        apiPath(routes.updateFhirPushSettings, { id: clientId }),
        routes.updateFhirPushSettings.response,
        {
          body: input,
          expectedStatuses: [400, 409],
        },
      ),
    onSuccess: (view, { clientId }) => queryClient.setQueryData(fhirPushKeys.settings(clientId), view),
  });
}
