import Checkbox from "@mui/material/Checkbox";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormHelperText from "@mui/material/FormHelperText";
import { type ReactNode, useId } from "react";
import { type Control, type FieldPath, type FieldValues, useController } from "react-hook-form";
import { labelledMessage } from "./field-messages";
import { keepServerMessageOnBlur } from "./use-contract-form";

export type CheckboxFieldProps<V extends FieldValues, T> = {
  control: Control<V, unknown, T>;
  /** A boolean field. */
  name: FieldPath<V>;
  label: string;
  help?: ReactNode;
  disabled?: boolean;
};

/**
 * A labelled checkbox bound to a react-hook-form boolean field. Its message (error or help) is announced with
 * it through aria-describedby, like a TextField's helper text.
 */
export function CheckboxField<V extends FieldValues, T>({
  control,
  name,
  label,
  help,
  disabled,
}: CheckboxFieldProps<V, T>) {
  const id = useId();
  const { field, fieldState } = useController({ control, name });
  const error = fieldState.error?.message;
  const describedBy = error || help ? `${id}-helper-text` : undefined;
  return (
    <FormControl error={Boolean(error)} disabled={disabled}>
      <FormControlLabel
        label={label}
        control={
          <Checkbox
            id={id}
            name={field.name}
            checked={Boolean(field.value)}
            onChange={(event) => field.onChange(event.target.checked)}
            onBlur={keepServerMessageOnBlur(field.onBlur, fieldState)}
            slotProps={{
              input: {
                ref: field.ref,
                "aria-invalid": error ? true : undefined,
                "aria-describedby": describedBy,
              } as React.ComponentProps<"input">,
            }}
          />
        }
      />
      {describedBy ? (
        <FormHelperText id={describedBy} sx={{ mt: -0.5 }}>
          {error ? labelledMessage(label, error) : help}
        </FormHelperText>
      ) : null}
    </FormControl>
  );
}
