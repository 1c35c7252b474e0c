import Grid from "@mui/material/Grid";
import TextField from "@mui/material/TextField";
import type { Contact, ContactInput, contactInputSchema } from "@vigil/contract";
import { CheckboxField } from "../../../components/forms/checkbox-field";
import type { ZodForm } from "../../../components/forms/use-zod-form";

export type ContactFormValues = {
  name: string;
  role: string;
  email: string;
  phone: string;
  isPrimary: boolean;
  notifyOnCritical: boolean;
  notes: string;
};

export type ContactForm = ZodForm<ContactFormValues, typeof contactInputSchema>;

export const contactFieldLabels: Record<keyof ContactFormValues, string> = {
  name: "Name",
  role: "Role",
  email: "Email",
  phone: "Phone",
  isPrimary: "Primary contact",
  notifyOnCritical: "Notify of critical findings",
  notes: "Notes",
};

export function contactFormValues(contact?: Contact): ContactFormValues {
  return {
    name: contact?.name ?? "",
    role: contact?.role ?? "",
    email: contact?.email ?? "",
    phone: contact?.phone ?? "",
    isPrimary: contact?.isPrimary ?? false,
    notifyOnCritical: contact?.notifyOnCritical ?? false,
    notes: contact?.notes ?? "",
  };
}

const blankToNull = (text: string): string | null => (text.trim() === "" ? null : text.trim());

export function toContactInput(values: ContactFormValues): ContactInput {
  return {
    name: values.name,
    role: blankToNull(values.role),
    email: blankToNull(values.email),
    phone: blankToNull(values.phone.replace(/[\s().-]/g, "")),
    isPrimary: values.isPrimary,
    notifyOnCritical: values.notifyOnCritical,
    notes: blankToNull(values.notes),
  };
}

/** The contact inputs, shared by the create page and the edit dialog. */
export function ContactFormFields({ form }: { form: ContactForm }) {
  const field = (name: keyof ContactFormValues, options: { required?: boolean; help?: string } = {}) =>
    form.textField(name, contactFieldLabels[name], options);
  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, sm: 6 }}>
        <TextField {...field("name", { required: true })} fullWidth autoComplete="off" />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <TextField {...field("role", { help: "e.g. Charge nurse, Attending neurologist" })} fullWidth />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <TextField {...field("email")} fullWidth type="email" autoComplete="off" />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <TextField {...field("phone", { help: "International form, e.g. +15555550100" })} fullWidth type="tel" />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <CheckboxField
          id={`${form.formId}-isPrimary`}
          label={contactFieldLabels.isPrimary}
          checked={form.values.isPrimary}
          onChange={(checked) => form.setValue("isPrimary", checked)}
          error={form.errorFor("isPrimary")}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <CheckboxField
          id={`${form.formId}-notifyOnCritical`}
          label={contactFieldLabels.notifyOnCritical}
          checked={form.values.notifyOnCritical}
          onChange={(checked) => form.setValue("notifyOnCritical", checked)}
          error={form.errorFor("notifyOnCritical")}
          help="Needs a phone number or an email address"
        />
      </Grid>
      <Grid size={{ xs: 12 }}>
        <TextField {...field("notes")} fullWidth multiline minRows={2} />
      </Grid>
    </Grid>
  );
}
