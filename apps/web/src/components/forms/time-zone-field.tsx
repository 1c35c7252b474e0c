import Autocomplete from "@mui/material/Autocomplete";
import TextField from "@mui/material/TextField";
import type { ReactNode } from "react";
import { type Control, type FieldPath, type FieldValues, useController } from "react-hook-form";
import { labelledMessage } from "./field-messages";
import { keepServerMessageOnBlur } from "./use-contract-form";

let cachedZones: readonly string[] | undefined;

/** The IANA zones this browser knows (`Intl.supportedValuesOf`), with UTC, which some engines leave out. */
export function timeZoneOptions(): readonly string[] {
  if (!cachedZones) {
    const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
    cachedZones = zones.includes("UTC") ? zones : [...zones, "UTC"];
  }
  return cachedZones;
}

export type TimeZoneFieldProps<V extends FieldValues, T> = {
  control: Control<V, unknown, T>;
  /** A text field holding the zone's name. */
  name: FieldPath<V>;
  label: string;
  help?: ReactNode;
  required?: boolean;
};

/**
 * A time-zone input bound to a react-hook-form field that suggests IANA names as the user types (America/Chic…
 * → America/Chicago). Typing is free, so a zone the browser does not list can still be entered; the contract's
 * schema decides what is valid.
 */
export function TimeZoneField<V extends FieldValues, T>({
  control,
  name,
  label,
  help,
  required,
}: TimeZoneFieldProps<V, T>) {
  const { field, fieldState } = useController({ control, name });
  const value = (field.value as string | null | undefined) ?? "";
  const message = fieldState.error?.message;
  return (
    <Autocomplete
      freeSolo
      autoHighlight
      options={timeZoneOptions() as string[]}
      value={value}
      inputValue={value}
      onInputChange={(_event, next) => field.onChange(next)}
      onChange={(_event, next) => field.onChange(typeof next === "string" ? next : "")}
      filterOptions={(options, state) => {
        const needle = state.inputValue.trim().toLowerCase().replace(/\s+/g, "_");
        const matches = needle ? options.filter((option) => option.toLowerCase().includes(needle)) : options;
        return matches.slice(0, 30);
      }}
      renderInput={(params) => (
        <TextField
          {...params}
          name={field.name}
          inputRef={field.ref}
          label={label}
          required={required}
          error={Boolean(message)}
          helperText={message ? labelledMessage(label, message) : help}
          onBlur={keepServerMessageOnBlur(field.onBlur, fieldState)}
        />
      )}
    />
  );
}
