import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type User, type UserProfessionalRequest, userEtag, userRoutes, userSchema } from "@vigil/contract";
import { requestData } from "../lib/api-client";
import { apiPath } from "../lib/api-paths";
import { sharedKeys } from "./query-keys";

/**
 * `PUT /api/users/{username}/professional`: names as parts, NPI, credentials, certifications. Written by the users
 * admin screen and by the account page (one's own), so it lives here once.
 */
export function setUserProfessional({
  user,
  professional,
}: {
  user: User;
  professional: UserProfessionalRequest;
}): Promise<User> {
  return requestData("PUT", apiPath(userRoutes.setUserProfessional, { username: user.username }), userSchema, {
    body: professional,
    headers: { "If-Match": userEtag(user) },
    expectedStatuses: [400, 404, 412],
  });
}

export function useSetUserProfessional() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setUserProfessional,
    onSettled: () => queryClient.invalidateQueries({ queryKey: sharedKeys.users() }),
  });
}
