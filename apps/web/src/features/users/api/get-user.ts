import { queryOptions, useQuery } from "@tanstack/react-query";
import { type User, userRoutes, userSchema } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";

/** `GET /api/users/{username}`: one's own details, or anyone's with users:manage. */
export function fetchUser(username: string, signal?: AbortSignal): Promise<User> {
  return requestData("GET", apiPath(userRoutes.getUser, { username }), userSchema, { signal });
}

export function userQueryKey(username: string) {
  return ["users", "detail", username] as const;
}

export function userQueryOptions(username: string) {
  return queryOptions({
    queryKey: userQueryKey(username),
    queryFn: ({ signal }) => fetchUser(username, signal),
  });
}

export function useUser(username: string | null) {
  return useQuery({ ...userQueryOptions(username ?? ""), enabled: Boolean(username) });
}
