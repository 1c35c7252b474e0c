import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type AccessGroup, type User, userEtag, userRoutes, userSchema } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { usersQueryKey } from "./list-users";

/** `PUT /api/users/{username}/access-groups`, guarded by the version the administrator saw (If-Match). */
export function setUserAccessGroups({ user, groups }: { user: User; groups: AccessGroup[] }): Promise<User> {
  return requestData("PUT", apiPath(userRoutes.setUserAccessGroups, { username: user.username }), userSchema, {
    body: { groups },
    headers: { "If-Match": userEtag(user) },
    expectedStatuses: [404, 409, 412],
  });
}

export function useSetUserAccessGroups() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setUserAccessGroups,
    onSettled: () => queryClient.invalidateQueries({ queryKey: usersQueryKey }),
  });
}
