import { type AuditOutcome, auditOutcomeSchema, auditQuerySchema } from "@vigil/contract";
import { useCallback, useMemo } from "react";
import { queryProblems, sentence } from "../../components/tables/query-problems";
import { useSearchState, wholeNumber } from "../../components/tables/use-search-state";
import type { AuditFilterQuery } from "./api/list-audit-events";

export const pageSizes = [25, 50, 100];
const defaultPageSize = 25;

export const filterKeys = ["user", "action", "caseId", "clientId", "outcome", "from", "to"] as const;
export type AuditFilterKey = (typeof filterKeys)[number];
export type AuditFilterValues = Record<AuditFilterKey, string>;
export type AuditFilterChange = Partial<Record<AuditFilterKey, string | null>>;

const defaults = {
  user: "",
  action: "",
  caseId: "",
  clientId: "",
  outcome: "",
  from: "",
  to: "",
  page: "0",
  size: String(defaultPageSize),
};

/** What the audit log shows: the URL's filters (raw, as typed), what of them the API can take, and the page. */
export type AuditLogView = {
  values: AuditFilterValues;
  outcome: AuditOutcome | null;
  /** The valid filters, as the API takes them; a value the API would refuse is left out (and named in `problems`). */
  query: AuditFilterQuery;
  problems: Partial<Record<AuditFilterKey, string>>;
  filtered: boolean;
  /** Zero-based. */
  page: number;
  pageSize: number;
};

const shape = auditQuerySchema.shape;

function validId(value: string): boolean {
  return shape.caseId.safeParse(value).success;
}

function validInstant(value: string): boolean {
  return shape.from.safeParse(value).success;
}

export function viewOf(raw: Record<string, string>): AuditLogView {
  const values = Object.fromEntries(filterKeys.map((key) => [key, raw[key] ?? ""])) as AuditFilterValues;
  const user = values.user.trim();
  const action = values.action.trim();
  const caseId = values.caseId.trim();
  const clientId = values.clientId.trim();
  const parsedOutcome = auditOutcomeSchema.safeParse(values.outcome);
  const outcome = parsedOutcome.success ? parsedOutcome.data : null;
  const badCase = caseId !== "" && !validId(caseId);
  const badClient = clientId !== "" && !validId(clientId);
  const badFrom = values.from !== "" && !validInstant(values.from);
  const badTo = values.to !== "" && !validInstant(values.to);
  const problems: AuditLogView["problems"] = {};
  if (badCase) problems.caseId = "Not a case id (a case id is a UUID)";
  if (badClient) problems.clientId = "Not a client id";
  if (badFrom) problems.from = "Not a time";
  if (badTo) problems.to = "Not a time";
  const query: AuditFilterQuery = {
    ...(user ? { user } : {}),
    ...(action ? { action } : {}),
    ...(caseId && !badCase ? { caseId } : {}),
    ...(clientId && !badClient ? { clientId } : {}),
    ...(outcome ? { outcome } : {}),
    ...(values.from && !badFrom ? { from: values.from } : {}),
    ...(values.to && !badTo ? { to: values.to } : {}),
  };
  // The contract's one rule for ranges: a start that is not before the end is refused, so like any value the API
  // would refuse it is left out and named beside its field.
  const range = queryProblems(auditQuerySchema, query).from;
  if (range) {
    problems.from = sentence(range);
    delete query.from;
  }
  const size = Number(raw.size);
  return {
    values,
    outcome,
    query,
    problems,
    filtered: filterKeys.some((key) => values[key].trim() !== ""),
    page: wholeNumber(raw.page ?? "", 0),
    pageSize: pageSizes.includes(size) ? size : defaultPageSize,
  };
}

/**
 * The audit log's view, kept in the hash route's query so a filtered log can be bookmarked, shared (the case
 * screen links to `/audit?caseId=…`) and restored with Back. A filter change starts again at the first page.
 */
export function useAuditLogView() {
  const [raw, setSearch] = useSearchState(defaults);
  const view = useMemo(() => viewOf(raw), [raw]);
  const setFilters = useCallback(
    (change: AuditFilterChange, options: { replace?: boolean } = {}) => setSearch({ ...change, page: null }, options),
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
