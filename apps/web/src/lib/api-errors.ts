import type { ErrorBody } from "@vigil/contract";
import { maxApiErrors } from "../config/constants";
import { createStore, useStore } from "./store";

/**
 * One failed API call, as shown in the dismissible alert stack of every layout (spec §8). It belongs to the page
 * (route path) it was made from: an error about a bad case address means nothing on New client. `page` is
 * undefined only before any layout has said which page is on screen.
 */
export type ApiErrorEntry = {
  id: number;
  error: ErrorBody;
  request: { method: string; path: string };
  page: string | undefined;
};

const apiErrorStore = createStore<readonly ApiErrorEntry[]>([]);
let nextId = 1;
/** The page on screen, as the layout's error stack last said (`showApiErrorsOf`). */
let pageOnScreen: string | undefined;

/** The page a request starting now belongs to: its error is shown there, not wherever the user went meanwhile. */
export function apiErrorPage(): string | undefined {
  return pageOnScreen;
}

export function pushApiError(
  error: ErrorBody,
  request: ApiErrorEntry["request"],
  page: string | undefined = pageOnScreen,
): ApiErrorEntry {
  const entry = { id: nextId++, error, request, page };
  apiErrorStore.set((entries) => [...entries, entry].slice(-maxApiErrors));
  return entry;
}

/**
 * The layout shows `page`: errors of the page the user left go; errors raised before any page was on screen
 * (while the session loaded) belong to this first one.
 */
export function showApiErrorsOf(page: string): void {
  const first = pageOnScreen === undefined;
  pageOnScreen = page;
  apiErrorStore.set((entries) => {
    const kept = entries.filter((entry) => entry.page === page || (first && entry.page === undefined));
    return kept.length === entries.length && kept.every((entry) => entry.page === page)
      ? entries
      : kept.map((entry) => ({ ...entry, page }));
  });
}

export function dismissApiError(id: number): void {
  apiErrorStore.set((entries) => entries.filter((entry) => entry.id !== id));
}

/** A fresh start (sign-out): no errors, and the next page shown takes whatever fails before it. */
export function clearApiErrors(): void {
  pageOnScreen = undefined;
  apiErrorStore.set([]);
}

export function getApiErrors(): readonly ApiErrorEntry[] {
  return apiErrorStore.get();
}

/** The errors of the page on screen (and any raised before a page said it was on screen). */
export function useApiErrors(page: string): readonly ApiErrorEntry[] {
  const entries = useStore(apiErrorStore);
  return entries.filter((entry) => entry.page === page || entry.page === undefined);
}
