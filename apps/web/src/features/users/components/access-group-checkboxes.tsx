import Checkbox from "@mui/material/Checkbox";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormGroup from "@mui/material/FormGroup";
import FormHelperText from "@mui/material/FormHelperText";
import FormLabel from "@mui/material/FormLabel";
import { type AccessGroup, accessGroups } from "@vigil/contract";
import type { ReactNode } from "react";
import { type Control, type FieldPath, useController } from "react-hook-form";
import { groupLabels } from "../user-labels";

/**
 * The access groups as checkboxes, bound to a react-hook-form `groups` field. The list is kept in the contract's
 * order, so ticking a group and unticking it again leaves the form as it was (not dirty).
 */
export function AccessGroupCheckboxes<V extends { groups: AccessGroup[] }, T>({
  control,
  legend,
  help,
}: {
  control: Control<V, unknown, T>;
  legend: ReactNode;
  /** Shown under the groups while they have no message. */
  help?: ReactNode;
}) {
  const { field, fieldState } = useController({ control, name: "groups" as FieldPath<V> });
  const selected = field.value as AccessGroup[];
  const message = fieldState.error?.message;
  const toggle = (group: AccessGroup, checked: boolean) =>
    field.onChange(accessGroups.filter((other) => (other === group ? checked : selected.includes(other))));
  return (
    <FormControl component="fieldset" error={Boolean(message)}>
      <FormLabel component="legend">{legend}</FormLabel>
      <FormGroup>
        {accessGroups.map((group, index) => (
          <FormControlLabel
            key={group}
            control={
              <Checkbox
                name={field.name}
                checked={selected.includes(group)}
                onChange={(event) => toggle(group, event.target.checked)}
                onBlur={field.onBlur}
                slotProps={{ input: index === 0 ? { ref: field.ref } : {} }}
              />
            }
            label={`${groupLabels[group].label} — ${groupLabels[group].description}`}
          />
        ))}
      </FormGroup>
      {message || help ? <FormHelperText>{message ?? help}</FormHelperText> : null}
    </FormControl>
  );
}

/** A user's groups in the contract's order (what the checkboxes keep), so comparing lists compares sets. */
export function inGroupOrder(groups: readonly AccessGroup[]): AccessGroup[] {
  return accessGroups.filter((group) => groups.includes(group));
}
