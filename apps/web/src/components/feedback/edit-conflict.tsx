import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import { type ReactNode, useState } from "react";
import { type CompareRow, SideBySideCompare } from "../compare/side-by-side-compare";

export type EditConflictProps = {
  /** "Someone else saved this client first". */
  title: string;
  /** Who saved and when, if known. */
  children?: ReactNode;
  /** Field by field: their saved version (left) and the user's unsaved edits (right). */
  rows: readonly CompareRow[];
  theirsTitle?: string;
  mineTitle?: string;
  /** Throw the edits away and continue from their version. */
  onReload: () => void;
  /** Save the user's edits on top of their version, after the user has seen it. */
  onOverwrite?: () => void;
  busy?: boolean;
};

/**
 * What an edit form shows when its save was refused because someone else saved first (412, or 409 for
 * revisions): nothing was saved, the user's edits are still in the form, and they choose — reload the other
 * version, compare both side by side, or knowingly save their edits over it. Never a silent overwrite.
 */
export function EditConflict({
  title,
  children,
  rows,
  theirsTitle = "Their saved version",
  mineTitle = "Your edits",
  onReload,
  onOverwrite,
  busy,
}: EditConflictProps) {
  const [comparing, setComparing] = useState(false);
  return (
    <Box sx={{ mb: 2 }}>
      <Alert severity="warning" role="alert">
        <AlertTitle>{title}</AlertTitle>
        {children}
        <Box component="p" sx={{ m: 0 }}>
          Nothing of yours was saved, and your edits are still in the form.
        </Box>
        <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: "wrap", gap: 1 }}>
          <Button variant="outlined" color="inherit" size="small" onClick={() => setComparing((open) => !open)}>
            {comparing ? "Hide comparison" : "Compare"}
          </Button>
          <Button variant="outlined" color="inherit" size="small" onClick={onReload} disabled={busy}>
            Reload their version
          </Button>
          {onOverwrite ? (
            <Button variant="outlined" color="inherit" size="small" onClick={onOverwrite} disabled={busy}>
              Save my edits over theirs
            </Button>
          ) : null}
        </Stack>
      </Alert>
      {comparing ? (
        <Box sx={{ mt: 2 }}>
          <SideBySideCompare
            label={`${theirsTitle} compared with ${mineTitle.toLowerCase()}`}
            leftTitle={theirsTitle}
            rightTitle={mineTitle}
            rows={rows}
          />
        </Box>
      ) : null}
    </Box>
  );
}
