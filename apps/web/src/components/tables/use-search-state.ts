import { useCallback, useContext, useMemo } from "react";
import { UNSAFE_DataRouterContext, useNavigate, useSearchParams } from "react-router";

export type SearchStateUpdate<K extends string> = Partial<Record<K, string | number | null | undefined>>;

/**
 * Changes the current page's query (`?…`) from what it is at the moment of the change, not from the last render's
 * copy: a change that arrives late (a text filter sent after its typing pause) would otherwise rebuild the query from
 * before a choice made meanwhile and, being the newer navigation, cancel it — the choice silently undone. For the
 * same reason a late change is dropped while the user is already on the way to another page (a link in the list was
 * followed and its screen is loading): it would cancel that navigation and keep them on the list.
 */
export function useQueryUpdate() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  // The live router (React Router's data routers publish it in this context); plain routers in some component
  // tests have none, and then the rendered query is the best there is.
  const router = useContext(UNSAFE_DataRouterContext)?.router;
  return useCallback(
    (change: (current: URLSearchParams) => URLSearchParams, options: { replace?: boolean } = {}) => {
      let current = params;
      if (router) {
        const { location, navigation } = router.state;
        const pending = navigation.location;
        if (pending && pending.pathname !== location.pathname) return;
        current = new URLSearchParams((pending ?? location).search);
      }
      const next = change(new URLSearchParams(current));
      void navigate({ search: `?${next.toString()}` }, { replace: options.replace ?? false });
    },
    [navigate, params, router],
  );
}

/**
 * List state (filters, sort, page) kept in the hash route's query, so a list can be bookmarked, shared and
 * restored with Back. Values equal to their default are left out of the URL to keep it short.
 */
export function useSearchState<const D extends Record<string, string>>(defaults: D) {
  const [params] = useSearchParams();
  const changeQuery = useQueryUpdate();
  const serialisedDefaults = JSON.stringify(defaults);

  const values = useMemo(() => {
    const parsedDefaults = JSON.parse(serialisedDefaults) as D;
    const result: Record<string, string> = {};
    for (const [key, fallback] of Object.entries(parsedDefaults)) result[key] = params.get(key) ?? fallback;
    return result as { [K in keyof D]: string };
  }, [params, serialisedDefaults]);

  const update = useCallback(
    (patch: SearchStateUpdate<Extract<keyof D, string>>, options: { replace?: boolean } = {}) => {
      const parsedDefaults = JSON.parse(serialisedDefaults) as D;
      changeQuery((next) => {
        for (const [key, raw] of Object.entries(patch)) {
          const value = raw === null || raw === undefined ? "" : String(raw);
          if (value === "" || value === parsedDefaults[key]) next.delete(key);
          else next.set(key, value);
        }
        return next;
      }, options);
    },
    [changeQuery, serialisedDefaults],
  );

  return [values, update] as const;
}

/** A URL value restricted to known choices; anything else (a hand-edited URL) falls back to the default. */
export function oneOf<const T extends string>(value: string, allowed: readonly T[], fallback: T): T {
  return (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}

/** A non-negative whole number from the URL, else the fallback. */
export function wholeNumber(value: string, fallback: number, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}): number {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed >= min && parsed <= max ? parsed : fallback;
}
