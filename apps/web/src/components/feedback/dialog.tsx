import MuiDialog, { type DialogProps as MuiDialogProps } from "@mui/material/Dialog";
import { useState } from "react";
import {
  createUnsavedChangesRegistry,
  UnsavedChangesScope,
  useEnclosingUnsavedChanges,
  useRegisteredForms,
  useUnsavedChanges,
} from "../../lib/unsaved-changes";
import { ConfirmDialog } from "./confirm-dialog";

type CloseReason = "backdropClick" | "escapeKeyDown";

export type DialogProps = MuiDialogProps & {
  /**
   * Edits the dialog holds outside a contract form (plain `useState` text); contract forms inside register
   * themselves (`useContractForm`).
   */
  unsavedChanges?: boolean;
};

/**
 * MUI's Dialog for every dialog of the app (Biome refuses `@mui/material/Dialog` elsewhere): while it holds unsaved
 * edits, a stray Escape or a click beside it asks before throwing them away. Its buttons (Cancel, Save) close it as
 * they always did. While it is open, its edits also count as the page's, so leaving the page or closing the tab
 * asks too.
 *
 * Its edits are those of the forms inside it (they register with the dialog) and, for the many dialogs whose
 * component holds the form and renders the dialog around it, whatever became unsaved around the dialog since it
 * opened: a modal dialog keeps the rest of the page from being edited meanwhile.
 */
export function Dialog({ open, onClose, unsavedChanges = false, children, ...rest }: DialogProps) {
  const [registry] = useState(createUnsavedChangesRegistry);
  const inside = useRegisteredForms(registry);
  const enclosing = useRegisteredForms(useEnclosingUnsavedChanges());
  // What was already unsaved around the dialog when it opened (set while rendering the opening, before any typing).
  const [before, setBefore] = useState<ReadonlySet<symbol> | null>(null);
  if (open && before === null) setBefore(enclosing);
  if (!open && before !== null) setBefore(null);
  const editedAround = before !== null && [...enclosing].some((form) => !before.has(form));
  const editedInside = unsavedChanges || inside.size > 0;
  const edited = editedInside || editedAround;
  // Edits around the dialog are the page's already; those inside it are told to the page here.
  useUnsavedChanges(open && editedInside);
  const [askingToDiscard, setAskingToDiscard] = useState<{ event: object; reason: CloseReason } | null>(null);

  const close =
    onClose &&
    ((event: object, reason: CloseReason) => {
      if (edited) setAskingToDiscard({ event, reason });
      else onClose(event, reason);
    });

  return (
    <>
      <MuiDialog open={open} onClose={close} {...rest}>
        <UnsavedChangesScope.Provider value={registry}>{children}</UnsavedChangesScope.Provider>
      </MuiDialog>
      <ConfirmDialog
        open={open && askingToDiscard !== null}
        title="Discard your changes?"
        confirmLabel="Discard changes"
        cancelLabel="Keep editing"
        destructive
        onConfirm={() => {
          const pending = askingToDiscard;
          setAskingToDiscard(null);
          if (pending) onClose?.(pending.event, pending.reason);
        }}
        onClose={() => setAskingToDiscard(null)}
      >
        What you entered in this dialog has not been saved. Closing it throws it away.
      </ConfirmDialog>
    </>
  );
}
