import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type User, userRoutes, userSchema } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { usersQueryKey } from "./list-users";

/** `POST /api/users/{username}/reset-mfa`: removes the user's SMS and authenticator-app MFA. */
export function resetUserMfa({ user }: { user: User }): Promise<User> {
  return requestData("POST", apiPath(userRoutes.resetUserMfa, { username: user.username }), userSchema, {
    expectedStatuses: [404],
  });
}

export function useResetUserMfa() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetUserMfa,
    onSettled: () => queryClient.invalidateQueries({ queryKey: usersQueryKey }),
  });
}
