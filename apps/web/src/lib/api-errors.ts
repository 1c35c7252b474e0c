import type { ErrorBody } from "@vigil/contract";
import { maxApiErrors } from "../config/constants";
import { createStore, useStore } from "./store";

/** One failed API call, as shown in the dismissible alert stack of every layout (spec §8). */
export type ApiErrorEntry = {
  id: number;
  error: ErrorBody;
  request: { method: string; path: string };
};

const apiErrorStore = createStore<readonly ApiErrorEntry[]>([]);
let nextId = 1;

export function pushApiError(error: ErrorBody, request: ApiErrorEntry["request"]): ApiErrorEntry {
  const entry = { id: nextId++, error, request };
  apiErrorStore.set((entries) => [...entries, entry].slice(-maxApiErrors));
  return entry;
}

export function dismissApiError(id: number): void {
  apiErrorStore.set((entries) => entries.filter((entry) => entry.id !== id));
}

export function clearApiErrors(): void {
  apiErrorStore.set([]);
}

export function getApiErrors(): readonly ApiErrorEntry[] {
  return apiErrorStore.get();
}

export function useApiErrors(): readonly ApiErrorEntry[] {
  return useStore(apiErrorStore);
}
