import Autocomplete from "@mui/material/Autocomplete";
import TextField from "@mui/material/TextField";
import type { ReactNode } from "react";

let cachedZones: readonly string[] | undefined;

/** The IANA zones this browser knows (`Intl.supportedValuesOf`), with UTC, which some engines leave out. */
export function timeZoneOptions(): readonly string[] {
  if (!cachedZones) {
    const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
    cachedZones = zones.includes("UTC") ? zones : [...zones, "UTC"];
  }
  return cachedZones;
}

export type TimeZoneFieldProps = {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  error?: boolean;
  helperText?: ReactNode;
  required?: boolean;
};

/**
 * A time-zone input that suggests IANA names as the user types (America/Chic… → America/Chicago). Typing is
 * free, so a zone the browser does not list can still be entered; the contract's schema decides what is valid.
 */
export function TimeZoneField({ id, label, value, onChange, onBlur, error, helperText, required }: TimeZoneFieldProps) {
  return (
    <Autocomplete
      id={id}
      freeSolo
      autoHighlight
      options={timeZoneOptions() as string[]}
      value={value}
      inputValue={value}
      onInputChange={(_event, next) => onChange(next)}
      onChange={(_event, next) => onChange(typeof next === "string" ? next : "")}
      filterOptions={(options, state) => {
        const needle = state.inputValue.trim().toLowerCase().replace(/\s+/g, "_");
        const matches = needle ? options.filter((option) => option.toLowerCase().includes(needle)) : options;
        return matches.slice(0, 30);
      }}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          required={required}
          error={error}
          helperText={helperText}
          onBlur={onBlur}
        />
      )}
    />
  );
}
