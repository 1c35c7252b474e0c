import type { CaseStage } from "@vigil/contract";

export type ClientListParams = {
  search: string;
  status: "active" | "inactive" | "archived" | "all";
  sort: "name" | "code" | "createdAt" | "updatedAt";
  order: "asc" | "desc";
  limit: number;
  offset: number;
};

export type ClientCasesParams = { stage: CaseStage | undefined; limit: number; offset: number };

/**
 * Query keys of the clients feature. Everything about one client sits under `detail(id)`, so a change that
 * touches the client (archive, restore) can refresh all of it with one prefix; lists sit under `lists()`.
 */
export const clientKeys = {
  all: ["clients"] as const,
  lists: () => [...clientKeys.all, "list"] as const,
  list: (params: ClientListParams) => [...clientKeys.lists(), params] as const,
  detail: (clientId: string) => [...clientKeys.all, "detail", clientId] as const,
  client: (clientId: string) => [...clientKeys.detail(clientId), "client"] as const,
  protocol: (clientId: string) => [...clientKeys.detail(clientId), "protocol"] as const,
  transferForm: (clientId: string) => [...clientKeys.detail(clientId), "transfer-form"] as const,
  contacts: (clientId: string) => [...clientKeys.detail(clientId), "contacts"] as const,
  usefulLinks: (clientId: string) => [...clientKeys.detail(clientId), "useful-links"] as const,
  cases: (clientId: string) => [...clientKeys.detail(clientId), "cases"] as const,
  casesPage: (clientId: string, params: ClientCasesParams) => [...clientKeys.cases(clientId), params] as const,
};

/** The breadcrumbs show the client's name; after a rename they must be read again (the chrome feature's key). */
export const breadcrumbsKeyPrefix = ["chrome", "breadcrumbs"] as const;
