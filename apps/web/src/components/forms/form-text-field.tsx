import TextField, { type TextFieldProps } from "@mui/material/TextField";
import type { ReactNode } from "react";
import { type Control, type FieldPath, type FieldValues, useController } from "react-hook-form";
import { labelledMessage } from "./field-messages";
import { keepServerMessageOnBlur } from "./use-contract-form";

export type FormTextFieldProps<V extends FieldValues, T> = Omit<
  TextFieldProps,
  "name" | "value" | "defaultValue" | "onChange" | "onBlur" | "error" | "helperText" | "label" | "inputRef"
> & {
  control: Control<V, unknown, T>;
  name: FieldPath<V>;
  label: string;
  /** Shown under the field while it has no message. */
  help?: ReactNode;
  /** Fields whose messages depend on this one (a schema refinement across fields): validated with it. */
  deps?: FieldPath<V>[];
  /** Show the message alone ("must be an email address") instead of after the label ("Email must be …"). */
  plainMessages?: boolean;
};

/**
 * A select always shows its chosen option, also the empty one ("Choose…"), so its label must sit above the box:
 * MUI only lifts a label when the value is not empty and otherwise draws it over the option's text.
 */
export function withSelectLabelAbove(slotProps: TextFieldProps["slotProps"]): TextFieldProps["slotProps"] {
  const inputLabel = slotProps?.inputLabel;
  if (typeof inputLabel === "function") return slotProps;
  return { ...slotProps, inputLabel: { ...inputLabel, shrink: true } };
}

/**
 * A MUI TextField bound to a react-hook-form field. Its message (from the schema or the server) replaces the
 * help text, which MUI ties to the input with aria-describedby, and marks the input aria-invalid.
 */
export function FormTextField<V extends FieldValues, T>({
  control,
  name,
  label,
  help,
  deps,
  plainMessages = false,
  slotProps,
  ...rest
}: FormTextFieldProps<V, T>) {
  const { field, fieldState } = useController({ control, name, rules: deps ? { deps } : undefined });
  const message = fieldState.error?.message;
  return (
    <TextField
      {...rest}
      slotProps={rest.select ? withSelectLabelAbove(slotProps) : slotProps}
      name={field.name}
      value={field.value ?? ""}
      onChange={field.onChange}
      onBlur={keepServerMessageOnBlur(field.onBlur, fieldState)}
      inputRef={field.ref}
      label={label}
      error={Boolean(message)}
      helperText={message ? (plainMessages ? message : labelledMessage(label, message)) : help}
    />
  );
}
