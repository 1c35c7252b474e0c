import type { CaseStage } from "@vigil/contract";
import { sharedKeys } from "../../../api/query-keys";

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
 * touches the client (archive, restore) can refresh all of it with one prefix; lists sit under `lists()`. The client
 * itself, its contacts and the id list other features pick clients from are shared reads (`src/api/`).
 */
export const clientKeys = {
  all: sharedKeys.clients(),
  lists: () => [...clientKeys.all, "list"] as const,
  list: (params: ClientListParams) => [...clientKeys.lists(), params] as const,
  detail: sharedKeys.clientDetail,
  client: sharedKeys.client,
  protocol: (clientId: string) => [...clientKeys.detail(clientId), "protocol"] as const,
  transferForm: (clientId: string) => [...clientKeys.detail(clientId), "transfer-form"] as const,
  contacts: sharedKeys.clientContacts,
  usefulLinks: (clientId: string) => [...clientKeys.detail(clientId), "useful-links"] as const,
  cases: (clientId: string) => [...clientKeys.detail(clientId), "cases"] as const,
  casesPage: (clientId: string, params: ClientCasesParams) => [...clientKeys.cases(clientId), params] as const,
};
