import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type PasswordReset, passwordResetSchema, type User, userRoutes } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { usersQueryKey } from "./list-users";

/**
 * `POST /api/users/{username}/reset-password`: the user must reset at next sign-in, or — if they never signed
 * in — is emailed a new temporary password.
 */
export function resetUserPassword({ user }: { user: User }): Promise<PasswordReset> {
  return requestData("POST", apiPath(userRoutes.resetUserPassword, { username: user.username }), passwordResetSchema, {
    expectedStatuses: [404, 503],
  });
}

export function useResetUserPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetUserPassword,
    onSettled: () => queryClient.invalidateQueries({ queryKey: usersQueryKey }),
  });
}
