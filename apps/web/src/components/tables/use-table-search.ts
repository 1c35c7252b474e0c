import type { SortOrder, SortState } from "./server-table";
import { oneOf, type SearchStateUpdate, useSearchState, wholeNumber } from "./use-search-state";

export const defaultPageSizes = [25, 50, 100];

/**
 * A server table's state in the URL (see `useSearchState`): its filters, plus `page` (zero-based) and `size`, each
 * read back only when valid (else the first page, the default size). Returns the values and their setter, the
 * page as the API takes it (`limit`, `offset`) and the pager's props for `ServerTable`: a new page keeps the
 * filters, a new page size starts again at the first page.
 */
export function useTableSearch<const D extends Record<string, string> & { page: string; size: string }>(
  defaults: D,
  pageSizes: number[] = defaultPageSizes,
) {
  const [search, setSearch] = useSearchState(defaults);
  type Update = SearchStateUpdate<Extract<keyof D, string>>;
  const pageSize = pageSizes.includes(Number(search.size)) ? Number(search.size) : Number(defaults.size);
  const page = wholeNumber(search.page, 0);
  const pager = {
    page,
    pageSize,
    pageSizeOptions: pageSizes,
    onPageChange: (next: number) => setSearch({ page: next } as Update),
    onPageSizeChange: (size: number) => setSearch({ size, page: null } as Update),
  };
  return { search, setSearch, range: { limit: pageSize, offset: page * pageSize }, pager };
}

/**
 * A sortable table's order in the URL (`sort` and `order`; a hand-edited value falls back to the default) and the
 * props that let `ServerTable`'s headers change it, starting again at the first page.
 */
export function tableSortOf<K extends string>(
  { search, setSearch }: { search: { sort: string; order: string }; setSearch: (patch: never) => void },
  keys: readonly K[],
  fallback: K,
) {
  const sort = oneOf(search.sort, keys, fallback);
  const order: SortOrder = oneOf(search.order, ["asc", "desc"] as const, "asc");
  const set = setSearch as (patch: Record<"sort" | "order" | "page", string | null>) => void;
  return {
    sort,
    order,
    tableSort: {
      sort: { key: sort, order } satisfies SortState<K>,
      onSortChange: (next: SortState<K>) => set({ sort: next.key, order: next.order, page: null }),
    },
  };
}

/** A paged list query (`{ items, total }`) as `ServerTable` shows it: rows, total, loading, fetching, error, retry. */
export function tableQueryProps<Row>(query: {
  data?: { items: readonly Row[]; total: number };
  isPending: boolean;
  isFetching: boolean;
  error: unknown;
  refetch: () => unknown;
}) {
  return {
    rows: query.data?.items,
    total: query.data?.total ?? 0,
    loading: query.isPending,
    fetching: query.isFetching,
    error: query.error,
    onRetry: () => void query.refetch(),
  };
}
