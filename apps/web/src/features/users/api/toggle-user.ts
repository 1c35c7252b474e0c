import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type User, userEtag, userRoutes, userSchema } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { usersQueryKey } from "./list-users";

/** `PUT /api/users/{username}/toggle`: enables or disables; disabling signs the user out everywhere at once. */
export function toggleUser({ user, isEnabled }: { user: User; isEnabled: boolean }): Promise<User> {
  return requestData("PUT", apiPath(userRoutes.toggleUser, { username: user.username }), userSchema, {
    body: { isEnabled },
    headers: { "If-Match": userEtag(user) },
    expectedStatuses: [404, 409, 412],
  });
}

export function useToggleUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: toggleUser,
    onSettled: () => queryClient.invalidateQueries({ queryKey: usersQueryKey }),
  });
}
