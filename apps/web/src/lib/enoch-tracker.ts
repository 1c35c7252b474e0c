import { createStore, useStore } from "./store";
import { useHasUnsavedChanges } from "./unsaved-changes";

/**
 * `enoch` is the server's release id, present on every API response (PRODUCT.md §8). The first value seen is the
 * release this page was loaded against; while later responses carry another value the server has moved on and
 * the user should reload. A response carrying the first value again (e.g. a rolling deploy answered by an older
 * instance, or a rollback) clears the flag.
 */
export type EnochState = { loadedWith: string | null; latest: string | null; changed: boolean };

const initialState: EnochState = { loadedWith: null, latest: null, changed: false };
const enochStore = createStore<EnochState>(initialState);

export function recordEnoch(enoch: string): void {
  enochStore.set((state) => {
    const loadedWith = state.loadedWith ?? enoch;
    const changed = enoch !== loadedWith;
    if (state.loadedWith === loadedWith && state.latest === enoch && state.changed === changed) return state;
    return { loadedWith, latest: enoch, changed };
  });
}

export function getEnochState(): EnochState {
  return enochStore.get();
}

/** Forget every value seen; the page load is the only other "start" there is. */
export function resetEnoch(): void {
  enochStore.set(initialState);
}

/** Whether to show "a new version is available": changed, and no form holds unsaved edits. */
export function useNewVersionAvailable(): boolean {
  const { changed } = useStore(enochStore);
  const editing = useHasUnsavedChanges();
  return changed && !editing;
}
