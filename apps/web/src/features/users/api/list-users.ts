import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { type UserListQuery, type UserPage, userPageSchema, userRoutes } from "@vigil/contract";
import { sharedKeys } from "../../../api/query-keys";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";

/**
 * Every query about users starts with this key (the technologist and reviewer pickers of other features too), so a
 * change anywhere refreshes them all.
 */
export const usersQueryKey = sharedKeys.users();

/** `GET /api/users`: one server-side page, searched and filtered. */
export function fetchUsers(query: UserListQuery, signal?: AbortSignal): Promise<UserPage> {
  return requestData("GET", apiPath(userRoutes.listUsers), userPageSchema, { query, signal });
}

export function usersQueryOptions(query: UserListQuery) {
  return queryOptions({
    queryKey: [...usersQueryKey, "list", query] as const,
    queryFn: ({ signal }) => fetchUsers(query, signal),
    // The previous page stays on screen while the next one loads, so the table does not jump.
    placeholderData: keepPreviousData,
  });
}

export function useUsers(query: UserListQuery) {
  return useQuery(usersQueryOptions(query));
}
