import Grid from "@mui/material/Grid";
import TextField from "@mui/material/TextField";
import type { UsefulLink, UsefulLinkInput, usefulLinkInputSchema } from "@vigil/contract";
import type { ZodForm } from "../../../components/forms/use-zod-form";

export type UsefulLinkFormValues = { title: string; url: string; description: string };
export type UsefulLinkForm = ZodForm<UsefulLinkFormValues, typeof usefulLinkInputSchema>;

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
  const field = (name: keyof UsefulLinkFormValues, options: { required?: boolean; help?: string } = {}) =>
    form.textField(name, usefulLinkFieldLabels[name], options);
  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12 }}>
        <TextField {...field("title", { required: true })} fullWidth />
      </Grid>
      <Grid size={{ xs: 12 }}>
        <TextField
          {...field("url", { required: true, help: "Starts with https:// (or http://)" })}
          fullWidth
          type="url"
          autoComplete="url"
        />
      </Grid>
      <Grid size={{ xs: 12 }}>
        <TextField {...field("description")} fullWidth multiline minRows={2} />
      </Grid>
    </Grid>
  );
}
