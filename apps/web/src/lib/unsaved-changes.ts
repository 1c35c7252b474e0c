import { useEffect } from "react";
import { createStore, useStore } from "./store";

/**
 * Which mounted forms hold unsaved edits. The "new version" banner and the build reload wait while any does,
 * so a user is never nudged into a reload that would throw their typing away.
 */
const dirtyForms = createStore<ReadonlySet<symbol>>(new Set());

function preventUnload(event: BeforeUnloadEvent): void {
  event.preventDefault();
}

/** Forms call this with their dirty flag; the registration ends when the form is clean or unmounts. */
export function useUnsavedChanges(dirty: boolean): void {
  useEffect(() => {
    if (!dirty) return;
    const token = Symbol("dirty-form");
    dirtyForms.set((forms) => new Set(forms).add(token));
    // The browser's own "leave site?" prompt covers tab closes and reloads the app does not control.
    window.addEventListener("beforeunload", preventUnload);
    return () => {
      window.removeEventListener("beforeunload", preventUnload);
      dirtyForms.set((forms) => {
        const next = new Set(forms);
        next.delete(token);
        return next;
      });
    };
  }, [dirty]);
}

export function hasUnsavedChanges(): boolean {
  return dirtyForms.get().size > 0;
}

export function useHasUnsavedChanges(): boolean {
  return useStore(dirtyForms).size > 0;
}
