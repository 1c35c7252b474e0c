import Checkbox from "@mui/material/Checkbox";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormHelperText from "@mui/material/FormHelperText";
import type { ReactNode } from "react";
import { labelledMessage } from "./field-messages";

export type CheckboxFieldProps = {
  id: string;
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** A message from the schema or the server, tied to the checkbox with aria-describedby. */
  error?: string;
  help?: ReactNode;
  disabled?: boolean;
};

/** A labelled checkbox whose message (error or help) is announced with it, like a TextField's helper text. */
export function CheckboxField({ id, label, checked, onChange, error, help, disabled }: CheckboxFieldProps) {
  const describedBy = error || help ? `${id}-helper-text` : undefined;
  return (
    <FormControl error={Boolean(error)} disabled={disabled}>
      <FormControlLabel
        label={label}
        control={
          <Checkbox
            id={id}
            checked={checked}
            onChange={(event) => onChange(event.target.checked)}
            slotProps={{
              input: {
                "aria-invalid": error ? true : undefined,
                "aria-describedby": describedBy,
              } as React.InputHTMLAttributes<HTMLInputElement>,
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
