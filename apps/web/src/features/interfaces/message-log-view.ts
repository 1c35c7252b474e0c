import {
  type Hl7Direction,
  type Hl7MessageStatus,
  hl7DirectionSchema,
  hl7MessageListQuerySchema,
  hl7MessageStatusSchema,
} from "@vigil/contract";
import { useCallback, useMemo } from "react";
import { queryProblems, sentence } from "../../components/tables/query-problems";
import { useSearchState, wholeNumber } from "../../components/tables/use-search-state";
import type { MessageLogFilterQuery } from "./api/message-log-list";

export const pageSizes = [25, 50, 100];
const defaultPageSize = 25;

export const filterKeys = ["direction", "status", "clientId", "messageType", "search", "from", "to"] as const;
export type MessageLogFilterKey = (typeof filterKeys)[number];
export type MessageLogFilterValues = Record<MessageLogFilterKey, string>;
export type MessageLogFilterChange = Partial<Record<MessageLogFilterKey, string | null>>;

const defaults = {
  direction: "",
  status: "",
  clientId: "",
  messageType: "",
  search: "",
  from: "",
  to: "",
  page: "0",
  size: String(defaultPageSize),
};

/** What the log shows: the URL's filters as typed, what of them the API takes, the problems, the page. */
export type MessageLogView = {
  values: MessageLogFilterValues;
  direction: Hl7Direction | null;
  status: Hl7MessageStatus | null;
  query: MessageLogFilterQuery;
  problems: Partial<Record<MessageLogFilterKey, string>>;
  filtered: boolean;
  /** Zero-based. */
  page: number;
  pageSize: number;
};

const shape = hl7MessageListQuerySchema.shape;

export function viewOf(raw: Record<string, string>): MessageLogView {
  const values = Object.fromEntries(filterKeys.map((key) => [key, raw[key] ?? ""])) as MessageLogFilterValues;
  const direction = hl7DirectionSchema.safeParse(values.direction).data ?? null;
  const status = hl7MessageStatusSchema.safeParse(values.status).data ?? null;
  const clientId = values.clientId.trim();
  const messageType = values.messageType.trim();
  const search = values.search.trim();
  const problems: MessageLogView["problems"] = {};
  const valid = (key: "clientId" | "from" | "to", value: string, problem: string) => {
    if (value === "") return false;
    if (shape[key].safeParse(value).success) return true;
    problems[key] = problem;
    return false;
  };
  const query: MessageLogFilterQuery = {
    ...(direction ? { direction } : {}),
    ...(status ? { status } : {}),
    ...(valid("clientId", clientId, "Not a client id") ? { clientId } : {}),
    ...(messageType ? { messageType } : {}),
    ...(search ? { search } : {}),
    ...(valid("from", values.from, "Not a time") ? { from: values.from } : {}),
    ...(valid("to", values.to, "Not a time") ? { to: values.to } : {}),
  };
  // Whatever else the contract would refuse (a type or search over 200 characters) is named beside its field.
  for (const [key, message] of Object.entries(queryProblems(hl7MessageListQuerySchema, query))) {
    if ((filterKeys as readonly string[]).includes(key)) {
      problems[key as MessageLogFilterKey] = sentence(message);
      delete query[key as keyof MessageLogFilterQuery];
    }
  }
  const size = Number(raw.size);
  return {
    values,
    direction,
    status,
    query,
    problems,
    filtered: filterKeys.some((key) => values[key].trim() !== ""),
    page: wholeNumber(raw.page ?? "", 0),
    pageSize: pageSizes.includes(size) ? size : defaultPageSize,
  };
}

/**
 * The log's view, kept in the hash route's query so a filtered log can be bookmarked, shared and restored with Back
 * (a message's page links back to it). A filter change starts again at the first page.
 */
export function useMessageLogView() {
  const [raw, setSearch] = useSearchState(defaults);
  const view = useMemo(() => viewOf(raw), [raw]);
  const setFilters = useCallback(
    (change: MessageLogFilterChange, options: { replace?: boolean } = {}) =>
      setSearch({ ...change, page: null }, options),
    [setSearch],
  );
  const setPage = useCallback((page: number) => setSearch({ page }), [setSearch]);
  const setPageSize = useCallback((size: number) => setSearch({ size, page: null }), [setSearch]);
  const clearFilters = useCallback(
    () => setSearch({ ...Object.fromEntries(filterKeys.map((key) => [key, null])), page: null }),
    [setSearch],
  );
  return { view, setFilters, setPage, setPageSize, clearFilters };
}
