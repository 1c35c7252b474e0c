import Archive from "@mui/icons-material/Archive";
import Button from "@mui/material/Button";
import { type ReactNode, useState } from "react";
import { apiErrorOf } from "../forms/field-messages";
import { ConfirmDialog } from "./confirm-dialog";

/**
 * "Archive", asked first in a confirmation that says what archiving keeps. `archive` runs the change and calls
 * `done` once it succeeded (the dialog then closes); a refusal stays in the dialog ("Not archived: …") until it is
 * closed, which also calls `reset` to forget it.
 */
export function ArchiveButton({
  title,
  confirmLabel,
  pending,
  error,
  archive,
  reset,
  children,
}: {
  title: string;
  confirmLabel: string;
  pending: boolean;
  error: unknown;
  archive: (done: () => void) => void;
  reset: () => void;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const failure = apiErrorOf(error);
  return (
    <>
      <Button variant="outlined" color="error" startIcon={<Archive />} onClick={() => setOpen(true)}>
        Archive
      </Button>
      <ConfirmDialog
        open={open}
        title={title}
        confirmLabel={confirmLabel}
        destructive
        pending={pending}
        error={failure ? `Not archived: ${failure.message}` : undefined}
        onConfirm={() => archive(() => setOpen(false))}
        onClose={() => {
          setOpen(false);
          reset();
        }}
      >
        {children}
      </ConfirmDialog>
    </>
  );
}
