import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import TextField from "@mui/material/TextField";
import { type FormEvent, type ReactNode, useEffect, useId, useState } from "react";
import { Dialog } from "./dialog";

export type ReasonDialogProps = {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  /** A reason is required (the server refuses the request without one); otherwise it is an optional comment. */
  required?: boolean;
  label?: string;
  maxLength?: number;
  destructive?: boolean;
  pending?: boolean;
  /** The server's answer when the request failed. */
  error?: string | null;
  onConfirm: (reason: string) => void;
  onClose: () => void;
};

/**
 * A question that needs words: the reason for sending a case back, a comment on a rejection. A required reason is
 * checked as it is typed and the confirm button says why it waits; the server's refusal shows above the buttons.
 */
export function ReasonDialog({
  open,
  title,
  children,
  confirmLabel,
  required = true,
  label = "Reason",
  maxLength = 2000,
  destructive = false,
  pending = false,
  error,
  onConfirm,
  onClose,
}: ReasonDialogProps) {
  const titleId = useId();
  const [text, setText] = useState("");
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    if (open) {
      setText("");
      setTouched(false);
    }
  }, [open]);
  const trimmed = text.trim();
  const problem =
    required && trimmed === ""
      ? `${label} is required`
      : trimmed.length > maxLength
        ? `${label} must be at most ${maxLength} characters`
        : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!problem) onConfirm(trimmed);
  };
  return (
    <Dialog
      open={open}
      onClose={pending ? undefined : onClose}
      unsavedChanges={trimmed !== ""}
      aria-labelledby={titleId}
      maxWidth="sm"
      fullWidth
    >
      <form noValidate onSubmit={submit}>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>
          {children ? (
            <DialogContentText component="div" sx={{ mb: 2 }}>
              {children}
            </DialogContentText>
          ) : null}
          <TextField
            label={label}
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              setTouched(true);
            }}
            onBlur={() => setTouched(true)}
            required={required}
            multiline
            minRows={3}
            fullWidth
            autoFocus
            error={touched && Boolean(problem)}
            helperText={touched && problem ? problem : required ? "Required; kept on the case's timeline" : undefined}
          />
          {error ? (
            <Alert severity="error" sx={{ mt: 2 }}>
              {error}
            </Alert>
          ) : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button
            type="submit"
            variant="contained"
            color={destructive ? "error" : "primary"}
            disabled={pending}
            startIcon={pending ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : undefined}
          >
            {confirmLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
