import TextField, { type TextFieldProps } from "@mui/material/TextField";
import type { ReactNode } from "react";
import type { FieldValues } from "react-hook-form";
import { FormTextField, type FormTextFieldProps, withSelectLabelAbove } from "./form-text-field";

/** One choice of a native select. */
export type SelectOption = { value: string; label: ReactNode; disabled?: boolean };

/** Options from a list of values and their labels, in the list's order. */
export function optionsOf<const T extends string>(
  values: readonly T[],
  label: Record<T, ReactNode> | ((value: T) => ReactNode),
): SelectOption[] {
  return values.map((value) => ({ value, label: typeof label === "function" ? label(value) : label[value] }));
}

/** Options from a record of labels, in the record's order. */
export function labelledOptions(labels: Readonly<Record<string, ReactNode>>): SelectOption[] {
  return Object.entries(labels).map(([value, label]) => ({ value, label }));
}

/** Clients as choices: "Name (CODE)", the id as value. */
export function clientOptions(clients: readonly { id: string; name: string; code: string }[] | undefined) {
  return (clients ?? []).map(
    (client): SelectOption => ({ value: client.id, label: `${client.name} (${client.code})` }),
  );
}

/** People as choices: their name, else their username; the id as value. */
export function personOptions(people: readonly { id: string; name?: string | null; username: string }[] | undefined) {
  return (people ?? []).map((person): SelectOption => ({ value: person.id, label: person.name || person.username }));
}

type Choices = {
  options: readonly SelectOption[];
  /** The first choice, with the empty value ("All clients", "Choose…"). */
  emptyLabel?: string;
  /** Choices between the empty one and `options` (e.g. a value from the URL that is not listed). */
  children?: ReactNode;
};

function renderChoices({ options, emptyLabel, children }: Choices) {
  return (
    <>
      {emptyLabel === undefined ? null : <option value="">{emptyLabel}</option>}
      {children}
      {options.map((option) => (
        <option key={option.value} value={option.value} disabled={option.disabled}>
          {option.label}
        </option>
      ))}
    </>
  );
}

export type SelectFieldProps = Omit<TextFieldProps, "select" | "value" | "onChange" | "children" | "label"> &
  Choices & {
    label: string;
    value: string;
    onChange: (value: string) => void;
  };

/**
 * A native select (filters, pickers in dialogs): the browser's own list, which every keyboard and screen reader
 * knows, with its label always above the box since the chosen option, also the empty one, is always shown.
 */
export function SelectField({ value, onChange, options, emptyLabel, children, slotProps, ...rest }: SelectFieldProps) {
  return (
    <TextField
      {...rest}
      select
      value={value}
      onChange={(event) => onChange(event.target.value)}
      slotProps={withSelectLabelAbove({ ...slotProps, select: { native: true } })}
    >
      {renderChoices({ options, emptyLabel, children })}
    </TextField>
  );
}

export type FormSelectFieldProps<V extends FieldValues, T> = Omit<FormTextFieldProps<V, T>, "select" | "children"> &
  Choices;

/** A native select bound to a react-hook-form field (see `FormTextField` for its messages). */
export function FormSelectField<V extends FieldValues, T>({
  options,
  emptyLabel,
  children,
  slotProps,
  ...rest
}: FormSelectFieldProps<V, T>) {
  return (
    <FormTextField {...rest} select slotProps={{ ...slotProps, select: { native: true } }}>
      {renderChoices({ options, emptyLabel, children })}
    </FormTextField>
  );
}
