import { createContext, useContext, useEffect } from "react";
import { createStore, type Store, useStore } from "./store";

/** The forms of one place (the page, or one dialog) that hold unsaved edits, each by a token. */
export type UnsavedChangesRegistry = Store<ReadonlySet<symbol>>;

export function createUnsavedChangesRegistry(): UnsavedChangesRegistry {
  return createStore<ReadonlySet<symbol>>(new Set());
}

/**
 * The page's registry: what leaving the page would lose. The "new version" banner and the build reload wait while
 * it holds anything, in-app navigation asks first (`components/navigation/unsaved-changes-guard.tsx`), and so does
 * the browser when the tab is closed or reloaded.
 */
const pageRegistry = createUnsavedChangesRegistry();

/**
 * The registry forms below register with instead of the page's: a dialog provides its own, so it knows whether
 * Escape or a click on the backdrop would throw typing away, and counts towards the page only while it is open.
 */
export const UnsavedChangesScope = createContext<UnsavedChangesRegistry | null>(null);

function preventUnload(event: BeforeUnloadEvent): void {
  event.preventDefault();
}

// One listener for the whole page, present exactly while something is unsaved: a form that becomes clean must
// not take the prompt away from another that is still dirty.
pageRegistry.subscribe(() => {
  if (pageRegistry.get().size > 0) window.addEventListener("beforeunload", preventUnload);
  else window.removeEventListener("beforeunload", preventUnload);
});

/**
 * Forms call this with their dirty flag (`useContractForm` does it for every contract form); the registration ends
 * when the form is clean or unmounts.
 */
export function useUnsavedChanges(dirty: boolean): void {
  const registry = useEnclosingUnsavedChanges();
  useEffect(() => {
    if (!dirty) return;
    const token = Symbol("dirty-form");
    registry.set((forms) => new Set(forms).add(token));
    return () => {
      registry.set((forms) => {
        const next = new Set(forms);
        next.delete(token);
        return next;
      });
    };
  }, [dirty, registry]);
}

export function hasUnsavedChanges(): boolean {
  return pageRegistry.get().size > 0;
}

export function useHasUnsavedChanges(): boolean {
  return useStore(pageRegistry).size > 0;
}

/** The registry a form rendered here registers with: the nearest dialog's, else the page's. */
export function useEnclosingUnsavedChanges(): UnsavedChangesRegistry {
  return useContext(UnsavedChangesScope) ?? pageRegistry;
}

/** The forms a registry holds now, re-rendering when that changes. */
export function useRegisteredForms(registry: UnsavedChangesRegistry): ReadonlySet<symbol> {
  return useStore(registry);
}
