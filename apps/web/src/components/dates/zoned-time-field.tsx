import { type FieldPath, type FieldValues, useWatch } from "react-hook-form";
import { FormTextField, type FormTextFieldProps } from "../forms/form-text-field";
import { zonedTimeHint } from "./zoned-input";

export type ZonedTimeFieldProps<V extends FieldValues, T> = Omit<FormTextFieldProps<V, T>, "type" | "help"> & {
  /** The IANA zone the typed wall time is read in. */
  timeZone: string;
  /** Whose zone it is, as the hint says it; the client's by default. */
  where?: string;
  /** Added to the hint, e.g. what leaving the field empty means. */
  note?: string;
};

/**
 * A date and time typed in a zone (`datetime-local`), whose hint speaks about the time typed: the zone named as it
 * is on that date (EDT on 8 March 06:07 in New York), and a warning when that time does not exist or happens twice
 * on the day the clocks change, saying which instant is saved. A message from the schema or the server replaces it.
 */
export function ZonedTimeField<V extends FieldValues, T>({
  control,
  name,
  timeZone,
  where,
  note,
  ...rest
}: ZonedTimeFieldProps<V, T>) {
  const value: unknown = useWatch({ control, name: name as FieldPath<V> });
  return (
    <FormTextField
      slotProps={{ inputLabel: { shrink: true } }}
      {...rest}
      control={control}
      name={name}
      type="datetime-local"
      help={zonedTimeHint(typeof value === "string" ? value : "", timeZone, { where, note })}
    />
  );
}
