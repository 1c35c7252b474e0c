import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type User, type UserContactRequest, userEtag, userRoutes, userSchema } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { usersQueryKey } from "./list-users";

/**
 * `PUT /api/users/{username}/contact`: the email and phone number (null removes it); a changed one stays unverified
 * until the user confirms a code sent to it.
 */
export function setUserContact({ user, contact }: { user: User; contact: UserContactRequest }): Promise<User> {
  return requestData("PUT", apiPath(userRoutes.setUserContact, { username: user.username }), userSchema, {
    body: contact,
    headers: { "If-Match": userEtag(user) },
    expectedStatuses: [400, 404, 409, 412],
  });
}

export function useSetUserContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setUserContact,
    onSettled: () => queryClient.invalidateQueries({ queryKey: usersQueryKey }),
  });
}
