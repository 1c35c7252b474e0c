import { useCallback, useMemo } from "react";
import { useSearchParams } from "react-router";

export type SearchStateUpdate<K extends string> = Partial<Record<K, string | number | null | undefined>>;

/**
 * List state (filters, sort, page) kept in the hash route's query, so a list can be bookmarked, shared and
 * restored with Back. Values equal to their default are left out of the URL to keep it short.
 */
export function useSearchState<const D extends Record<string, string>>(defaults: D) {
  const [params, setParams] = useSearchParams();
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
      setParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          for (const [key, raw] of Object.entries(patch)) {
            const value = raw === null || raw === undefined ? "" : String(raw);
            if (value === "" || value === parsedDefaults[key]) next.delete(key);
            else next.set(key, value);
          }
          return next;
        },
        { replace: options.replace ?? false },
      );
    },
    [setParams, serialisedDefaults],
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
