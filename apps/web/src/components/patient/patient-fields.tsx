import Grid from "@mui/material/Grid";
import type { Control, FieldPath, FieldValues } from "react-hook-form";
import { FormTextField } from "../forms/form-text-field";
import { FormSelectField, labelledOptions } from "../forms/select-field";
import { sexLabels } from "./patient-labels";

const sexOptions = labelledOptions(sexLabels);

/**
 * The patient's fields (MRN and names required), as grid items of the caller's grid: the same in the new-case form
 * (under `patient.`) and in the patient-details editor (at the top level), so both ask alike.
 */
export function PatientFields<V extends FieldValues, T>({
  control,
  prefix = "",
}: {
  control: Control<V, unknown, T>;
  prefix?: "" | "patient.";
}) {
  const name = (path: string) => `${prefix}${path}` as FieldPath<V>;
  const text = (path: string, label: string, { required = false, wide = false } = {}) => (
    <FormTextField
      control={control}
      name={name(path)}
      label={label}
      fullWidth
      required={required}
      multiline={wide}
      minRows={wide ? 2 : undefined}
    />
  );
  return (
    <>
      <Grid size={{ xs: 12, sm: 4 }}>{text("mrn", "MRN", { required: true })}</Grid>
      <Grid size={{ xs: 12, sm: 4 }}>{text("firstName", "First name", { required: true })}</Grid>
      <Grid size={{ xs: 12, sm: 4 }}>{text("lastName", "Last name", { required: true })}</Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField
          control={control}
          name={name("dateOfBirth")}
          label="Date of birth"
          type="date"
          fullWidth
          slotProps={{ inputLabel: { shrink: true } }}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormSelectField control={control} name={name("sex")} label="Sex" fullWidth options={sexOptions} />
      </Grid>
      <Grid size={{ xs: 12, sm: 4 }}>{text("location.unit", "Unit")}</Grid>
      <Grid size={{ xs: 6, sm: 4 }}>{text("location.room", "Room")}</Grid>
      <Grid size={{ xs: 6, sm: 4 }}>{text("location.bed", "Bed")}</Grid>
      <Grid size={12}>{text("referringPhysician", "Referring physician")}</Grid>
      <Grid size={12}>{text("indication", "Indication", { wide: true })}</Grid>
      <Grid size={12}>{text("medications", "Medications", { wide: true })}</Grid>
      <Grid size={12}>{text("notes", "Notes", { wide: true })}</Grid>
    </>
  );
}
