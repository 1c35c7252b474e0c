import Alert from "@mui/material/Alert";
import { type Control, type FieldValues, useFormState } from "react-hook-form";
import { serverErrorType } from "../../../components/forms/use-contract-form";
import { EditorActions } from "../components/editor-actions";

/**
 * The parts of a record editor that follow the form's state. They subscribe on their own, so a keystroke in a
 * long form (an interpretation) re-renders them, not every field.
 */
export function FormEditorActions<V extends FieldValues, T>({
  control,
  submitLabel,
  busy = false,
  onCancel,
}: {
  control: Control<V, unknown, T>;
  submitLabel: string;
  busy?: boolean;
  onCancel: () => void;
}) {
  const { isSubmitting } = useFormState({ control });
  return <EditorActions submitLabel={submitLabel} busy={busy || isSubmitting} onCancel={onCancel} />;
}

/** A server message about the body as a whole (no field of its own). */
export function FormServerError<V extends FieldValues, T>({ control }: { control: Control<V, unknown, T> }) {
  const { errors } = useFormState({ control });
  const message = errors.root?.[serverErrorType]?.message;
  return message ? (
    <Alert severity="error" role="alert">
      {message}
    </Alert>
  ) : null;
}
