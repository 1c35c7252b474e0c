import Grid from "@mui/material/Grid";
import type { UsefulLink, UsefulLinkInput, usefulLinkInputSchema } from "@vigil/contract";
import { FormTextField } from "../../../components/forms/form-text-field";
import type { ContractForm } from "../../../components/forms/use-contract-form";

export type UsefulLinkFormValues = { title: string; url: string; description: string };
export type UsefulLinkForm = ContractForm<UsefulLinkFormValues, typeof usefulLinkInputSchema>;

export const usefulLinkFieldLabels: Record<keyof UsefulLinkFormValues, string> = {
  title: "Title",
  url: "Web address",
  description: "Description",
};

export function usefulLinkFormValues(link?: UsefulLink): UsefulLinkFormValues {
  return { title: link?.title ?? "", url: link?.url ?? "", description: link?.description ?? "" };
}

export function toUsefulLinkInput(values: UsefulLinkFormValues): UsefulLinkInput {
  return {
    title: values.title,
    url: values.url.trim(),
    description: values.description.trim() === "" ? null : values.description,
  };
}

export function UsefulLinkFormFields({ form }: { form: UsefulLinkForm }) {
  const { control } = form;
  const field = (name: keyof UsefulLinkFormValues) => ({ control, name, label: usefulLinkFieldLabels[name] });
  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12 }}>
        <FormTextField {...field("title")} required fullWidth />
      </Grid>
      <Grid size={{ xs: 12 }}>
        <FormTextField
          {...field("url")}
          required
          help="Starts with https:// (or http://)"
          fullWidth
          type="url"
          autoComplete="url"
        />
      </Grid>
      <Grid size={{ xs: 12 }}>
        <FormTextField {...field("description")} fullWidth multiline minRows={2} />
      </Grid>
    </Grid>
  );
}
