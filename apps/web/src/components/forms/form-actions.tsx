import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
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
