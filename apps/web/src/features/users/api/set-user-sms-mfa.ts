import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type User, userEtag, userRoutes, userSchema } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { usersQueryKey } from "./list-users";

/** `PUT /api/users/{username}/sms-mfa`: turns SMS codes at sign-in on (needs a phone number) or off. */
export function setUserSmsMfa({ user, enabled }: { user: User; enabled: boolean }): Promise<User> {
  return requestData("PUT", apiPath(userRoutes.setUserSmsMfa, { username: user.username }), userSchema, {
    body: { enabled },
    headers: { "If-Match": userEtag(user) },
    expectedStatuses: [404, 409, 412],
  });
}

export function useSetUserSmsMfa() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setUserSmsMfa,
    onSettled: () => queryClient.invalidateQueries({ queryKey: usersQueryKey }),
  });
}
