import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import type { ReactNode } from "react";
import { type Control, type FieldValues, type UseFormReturn, useFormState } from "react-hook-form";
import { FormActions } from "../../../components/forms/form-actions";
import { serverErrorType } from "../../../components/forms/use-contract-form";
import type { RecordEditorProps } from "../components/record-view";

/**
 * The frame every record editor shares: a labelled form that hands the parsed data to the tab, puts what the
 * server says about its fields under them (`placeErrors`; anything else is the tab's to show) and ends with
 * Save/Cancel.
 */
export function RecordEditorForm<V extends FieldValues, Data>({
  form,
  label,
  editor: { onSubmit, submitLabel, busy, onCancel },
  placeErrors,
  children,
}: {
  form: UseFormReturn<V, unknown, Data>;
  /** The editor's own props: what the tab asked for (its submit label, busy state, onSubmit, onCancel). */
  editor: Pick<RecordEditorProps<Data>, "onSubmit" | "submitLabel" | "busy" | "onCancel">;
  /** The form's accessible name. */
  label: string;
  /** Shows a refusal on the fields it names; false when it names none. */
  placeErrors?: (error: unknown, data: Data) => boolean;
  children: ReactNode;
}) {
  const submit = form.handleSubmit(async (data) => {
    try {
      await onSubmit(data);
    } catch (error) {
      if (!placeErrors?.(error, data)) throw error;
    }
  });
  return (
    <Box component="form" noValidate onSubmit={submit} aria-label={label}>
      {children}
      <FormEditorActions control={form.control} submitLabel={submitLabel} busy={busy} onCancel={onCancel} />
    </Box>
  );
}

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
  return <FormActions submitLabel={submitLabel} pending={busy || isSubmitting} spinner onCancel={onCancel} />;
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
