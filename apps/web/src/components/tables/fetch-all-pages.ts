/** The API's maximum page size (PRODUCT.md §8): exports walk a list in pages of this many. */
export const maxPageSize = 200;

export type PageOf<T> = { items: T[]; total: number };
export type FetchPage<T> = (page: { offset: number; limit: number; signal: AbortSignal }) => Promise<PageOf<T>>;

/**
 * Every item of a server-paged list, one page at a time (offset paging), reporting progress after each page.
 * Stops at a short page, so a list that shrinks meanwhile, or whose total is an estimate, cannot loop forever.
 * Abortable.
 */
export async function fetchAllPages<T>(
  fetchPage: FetchPage<T>,
  options: { signal: AbortSignal; pageSize?: number; onProgress?: (loaded: number, total: number) => void },
): Promise<T[]> {
  const limit = options.pageSize ?? maxPageSize;
  const items: T[] = [];
  let total = Number.POSITIVE_INFINITY;
  while (items.length < total) {
    options.signal.throwIfAborted();
    const page = await fetchPage({ offset: items.length, limit, signal: options.signal });
    total = page.total;
    items.push(...page.items);
    options.onProgress?.(Math.min(items.length, total), total);
    // A short page is the last: a total that is an estimate ("about N") may be more than there are.
    if (page.items.length < limit) break;
  }
  return items;
}
