import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Stack from "@mui/material/Stack";

/** The submit and cancel buttons every record editor ends with. */
export function EditorActions({
  submitLabel,
  busy = false,
  onCancel,
}: {
  submitLabel: string;
  busy?: boolean;
  onCancel: () => void;
}) {
  return (
    <Stack direction="row" spacing={2} sx={{ mt: 3 }}>
      <Button
        type="submit"
        variant="contained"
        disabled={busy}
        startIcon={busy ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : undefined}
      >
        {submitLabel}
      </Button>
      <Button onClick={onCancel} disabled={busy}>
        Cancel
      </Button>
    </Stack>
  );
}
