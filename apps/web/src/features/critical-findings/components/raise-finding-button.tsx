import NotificationImportant from "@mui/icons-material/NotificationImportant";
import Button from "@mui/material/Button";
import { useState } from "react";
import { useAccess } from "../../../components/access/access-context";
import { acceptsFindings, type FindingCase, RaiseFindingDialog } from "./raise-finding-dialog";

export type RaiseFindingButtonProps = {
  target: FindingCase;
  /** Where the case overview is, when the button is away from it (a watch board row). */
  caseHref?: string;
  /** A board row's small button names its case for screen readers; the case screen's says only what it does. */
  compact?: boolean;
};

/**
 * "Raise critical finding": the first of the two clicks. Shown only to those who may raise one (technologists,
 * reviewers, administrators) and only on a case in monitoring or preview, as the server allows.
 */
export function RaiseFindingButton({ target, caseHref, compact = false }: RaiseFindingButtonProps) {
  const { can } = useAccess();
  const [open, setOpen] = useState(false);
  if (!can("findings:raise") || !acceptsFindings(target.stage)) return null;
  return (
    <>
      <Button
        variant={compact ? "outlined" : "contained"}
        color="error"
        size={compact ? "small" : "medium"}
        startIcon={compact ? undefined : <NotificationImportant />}
        aria-label={compact ? `Raise critical finding: ${target.caseNumber}` : undefined}
        sx={{ whiteSpace: "nowrap" }}
        onClick={() => setOpen(true)}
      >
        Raise critical finding
      </Button>
      <RaiseFindingDialog open={open} target={target} caseHref={caseHref} onClose={() => setOpen(false)} />
    </>
  );
}
