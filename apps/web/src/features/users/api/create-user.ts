import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type CreatedUser, type CreateUserRequest, createdUserSchema, userRoutes } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { usersQueryKey } from "./list-users";

/** `POST /api/users`: the server emails the temporary password; field problems come back as 400/409 issues. */
export function createUser(body: CreateUserRequest): Promise<CreatedUser> {
  return requestData("POST", apiPath(userRoutes.createUser), createdUserSchema, {
    body,
    expectedStatuses: [400, 409, 503],
  });
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    // A 503 (mail not sent) still created the user, so the list is refreshed after any answer.
    onSettled: () => queryClient.invalidateQueries({ queryKey: usersQueryKey }),
  });
}
