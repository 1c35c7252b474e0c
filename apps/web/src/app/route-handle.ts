import type { PageDefinition } from "@vigil/contract";
import { useMatches } from "react-router";

/** What each route carries in `handle`: its row of the contract's page table, or a bare title (404). */
export type RouteHandle = { page?: PageDefinition; title?: string };

function isRouteHandle(value: unknown): value is RouteHandle {
  return typeof value === "object" && value !== null && ("page" in value || "title" in value);
}

/** The deepest matched route's handle: the page being shown. */
export function useRouteHandle(): RouteHandle | undefined {
  const matches = useMatches();
  for (let index = matches.length - 1; index >= 0; index--) {
    const handle = matches[index]?.handle;
    if (isRouteHandle(handle)) return handle;
  }
  return undefined;
}

export function useCurrentPage(): PageDefinition | undefined {
  return useRouteHandle()?.page;
}
