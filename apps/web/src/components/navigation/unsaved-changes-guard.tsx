import { pages } from "@vigil/contract";
import { lazy, Suspense, useEffect, useState } from "react";
import { type BlockerFunction, useBlocker } from "react-router";
import { hasUnsavedChanges, useHasUnsavedChanges } from "../../lib/unsaved-changes";

// The question is MUI's Dialog (with Modal, the focus trap and the backdrop): its own chunk, requested as the guard
// first renders, so it is never part of the signed-in shell's first load yet is there long before anyone has typed
// anything a navigation could throw away.
const ConfirmDialog = lazy(() =>
  import("../feedback/confirm-dialog").then((module) => ({ default: module.ConfirmDialog })),
);

/**
 * Leaving the page (a menu entry, a link, a tab of the page, Back) while a form holds unsaved edits. Changes of the
 * query alone (a table's filter, sort or page) stay on the page and are let through; so is the way to the sign-in
 * page, taken when the session has ended, where nothing could be saved any more.
 */
const leavesWithUnsavedChanges: BlockerFunction = ({ currentLocation, nextLocation }) =>
  hasUnsavedChanges() &&
  currentLocation.pathname !== nextLocation.pathname &&
  nextLocation.pathname !== pages.signin.path;

/**
 * Asks before in-app navigation throws unsaved edits away. A form that saves and then moves on (`reset`, then
 * `navigate`) is still registered at the moment it navigates, because registrations follow renders: the question
 * is only put once the renders have settled, and a navigation whose form turned out clean simply continues.
 */
export function UnsavedChangesGuard() {
  const blocker = useBlocker(leavesWithUnsavedChanges);
  const dirty = useHasUnsavedChanges();
  const [asking, setAsking] = useState(false);

  useEffect(() => {
    if (blocker.state !== "blocked") {
      setAsking(false);
      return;
    }
    // Read again now, not only as rendered: the form's clean-up may have run just before this effect.
    if (dirty && hasUnsavedChanges()) setAsking(true);
    else blocker.proceed();
  }, [blocker, dirty]);

  return (
    <Suspense fallback={null}>
      <ConfirmDialog
        open={asking && blocker.state === "blocked"}
        title="Leave this page?"
        confirmLabel="Leave and discard"
        cancelLabel="Stay on this page"
        destructive
        onConfirm={() => blocker.proceed?.()}
        onClose={() => blocker.reset?.()}
      >
        You have changes that are not saved yet. Leaving this page throws them away.
      </ConfirmDialog>
    </Suspense>
  );
}
