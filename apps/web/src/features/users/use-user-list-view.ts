import {
  type AccessGroup,
  accessGroupSchema,
  type UserListQuery,
  type UserSort,
  userSortSchema,
} from "@vigil/contract";
import { useCallback, useMemo } from "react";
import { useSearchParams } from "react-router";
import { useQueryUpdate } from "../../components/tables/use-search-state";

export const pageSizes = [25, 50, 100] as const;
const defaultPageSize = 25;

/** What the user list shows, kept in the hash route's query so a reload, a bookmark or Back shows the same. */
export type UserListView = {
  search: string;
  group: AccessGroup | null;
  enabled: boolean | null;
  /** Zero-based, as MUI's pagination counts. */
  page: number;
  pageSize: number;
  sort: UserSort;
  order: "asc" | "desc";
};

function readView(params: URLSearchParams): UserListView {
  const group = accessGroupSchema.safeParse(params.get("group"));
  const sort = userSortSchema.safeParse(params.get("sort"));
  const enabled = params.get("enabled");
  const page = Number.parseInt(params.get("page") ?? "", 10);
  const pageSize = Number.parseInt(params.get("pageSize") ?? "", 10);
  return {
    search: params.get("search") ?? "",
    group: group.success ? group.data : null,
    enabled: enabled === "true" ? true : enabled === "false" ? false : null,
    page: Number.isInteger(page) && page > 0 ? page - 1 : 0,
    pageSize: (pageSizes as readonly number[]).includes(pageSize) ? pageSize : defaultPageSize,
    sort: sort.success ? sort.data : "username",
    order: params.get("order") === "desc" ? "desc" : "asc",
  };
}

/** Only what differs from the defaults goes into the URL; pages are one-based there, for people. */
function writeView(view: UserListView): URLSearchParams {
  const params = new URLSearchParams();
  if (view.search) params.set("search", view.search);
  if (view.group) params.set("group", view.group);
  if (view.enabled !== null) params.set("enabled", String(view.enabled));
  if (view.page > 0) params.set("page", String(view.page + 1));
  if (view.pageSize !== defaultPageSize) params.set("pageSize", String(view.pageSize));
  if (view.sort !== "username") params.set("sort", view.sort);
  if (view.order !== "asc") params.set("order", view.order);
  return params;
}

export function isFiltered(view: UserListView): boolean {
  return Boolean(view.search) || view.group !== null || view.enabled !== null;
}

/** The API query for a view. */
export function queryOf(view: UserListView): UserListQuery {
  return {
    limit: view.pageSize,
    offset: view.page * view.pageSize,
    sort: view.sort,
    order: view.order,
    ...(view.search ? { search: view.search } : {}),
    ...(view.group ? { group: view.group } : {}),
    ...(view.enabled === null ? {} : { enabled: view.enabled }),
  };
}

/**
 * The list's view and a way to change it. Any change other than paging starts again at the first page, since
 * the old page number means nothing under a new filter or order.
 */
export function useUserListView(): [UserListView, (change: Partial<UserListView>) => void] {
  const [params] = useSearchParams();
  const changeQuery = useQueryUpdate();
  const view = useMemo(() => readView(params), [params]);
  const update = useCallback(
    (change: Partial<UserListView>) => {
      const resetsPage = !("page" in change);
      changeQuery((current) => writeView({ ...readView(current), ...change, ...(resetsPage ? { page: 0 } : {}) }), {
        replace: true,
      });
    },
    [changeQuery],
  );
  return [view, update];
}
