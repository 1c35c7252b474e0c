import Grid from "@mui/material/Grid";
import type { Contact, ContactInput, contactInputSchema } from "@vigil/contract";
import { CheckboxField } from "../../../components/forms/checkbox-field";
import { FormTextField } from "../../../components/forms/form-text-field";
import type { ContractForm } from "../../../components/forms/use-contract-form";

export type ContactFormValues = {
  name: string;
  role: string;
  email: string;
  phone: string;
  isPrimary: boolean;
  notifyOnCritical: boolean;
  notes: string;
};

export type ContactForm = ContractForm<ContactFormValues, typeof contactInputSchema>;

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
  const { control } = form;
  const field = (name: keyof ContactFormValues) => ({ control, name, label: contactFieldLabels[name] });
  // Whether a contact may be notified depends on having a phone or an email: that message follows them.
  const reach: (keyof ContactFormValues)[] = ["notifyOnCritical"];
  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField {...field("name")} required fullWidth autoComplete="off" />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField {...field("role")} help="e.g. Charge nurse, Attending neurologist" fullWidth />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField {...field("email")} deps={reach} fullWidth type="email" autoComplete="off" />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField
          {...field("phone")}
          deps={reach}
          help="International form, e.g. +15555550100"
          fullWidth
          type="tel"
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <CheckboxField {...field("isPrimary")} />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <CheckboxField {...field("notifyOnCritical")} help="Needs a phone number or an email address" />
      </Grid>
      <Grid size={{ xs: 12 }}>
        <FormTextField {...field("notes")} fullWidth multiline minRows={2} />
      </Grid>
    </Grid>
  );
}
