import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import DialogActions from "@mui/material/DialogActions";
import Stack from "@mui/material/Stack";
import { Link as RouterLink } from "react-router";

/**
 * A form's last row: its submit button ("Save", "Create case") and Cancel, which either runs `onCancel` or leads
 * back to `cancelTo`. Both are disabled while the form is sent; `spinner` shows a spinner in the submit button
 * then (for forms whose label stays the same while they save).
 */
export function FormActions({
  submitLabel,
  pending = false,
  spinner = false,
  onCancel,
  cancelTo,
}: {
  submitLabel: string;
  pending?: boolean;
  spinner?: boolean;
} & ({ onCancel: () => void; cancelTo?: never } | { cancelTo: string; onCancel?: never })) {
  return (
    <Stack direction="row" spacing={2} sx={{ mt: 3 }}>
      <Button
        type="submit"
        variant="contained"
        disabled={pending}
        startIcon={spinner && pending ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : undefined}
      >
        {submitLabel}
      </Button>
      {cancelTo === undefined ? (
        <Button onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
      ) : (
        <Button component={RouterLink} to={cancelTo} disabled={pending}>
          Cancel
        </Button>
      )}
    </Stack>
  );
}

/**
 * A dialog's last row: Cancel, then its submit button ("Save groups", "Send report"). Both are disabled while it
 * is sent, and the submit button shows a spinner then; `disabled` holds the submit back besides (nothing changed).
 */
export function DialogFormActions({
  submitLabel,
  pending,
  disabled = false,
  onCancel,
  onSubmit,
}: {
  submitLabel: string;
  pending: boolean;
  disabled?: boolean;
  onCancel: () => void;
  /** For a dialog without a form element around its fields: what the submit button does. */
  onSubmit?: () => void;
}) {
  return (
    <DialogActions>
      <Button onClick={onCancel} disabled={pending}>
        Cancel
      </Button>
      <Button
        type={onSubmit ? "button" : "submit"}
        variant="contained"
        onClick={onSubmit}
        disabled={pending || disabled}
        startIcon={pending ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : null}
      >
        {submitLabel}
      </Button>
    </DialogActions>
  );
}
