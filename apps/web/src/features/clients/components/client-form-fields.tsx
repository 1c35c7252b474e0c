import Grid from "@mui/material/Grid";
import type { Client, ClientInput, clientInputSchema } from "@vigil/contract";
import { FormTextField } from "../../../components/forms/form-text-field";
import { FormSelectField, labelledOptions } from "../../../components/forms/select-field";
import { TimeZoneField } from "../../../components/forms/time-zone-field";
import type { ContractForm } from "../../../components/forms/use-contract-form";
import { clientStatusLabels } from "../client-labels";

/** What the client form edits: every field as the text in its input. */
export type ClientFormValues = {
  name: string;
  code: string;
  status: Client["status"];
  timezone: string;
  phone: string;
  addressLine1: string;
  addressLine2: string;
  city: string;
  region: string;
  postalCode: string;
  country: string;
  notes: string;
};

export type ClientForm = ContractForm<ClientFormValues, typeof clientInputSchema>;

export function clientFormValues(client?: Client): ClientFormValues {
  return {
    name: client?.name ?? "",
    code: client?.code ?? "",
    status: client?.status ?? "active",
    timezone: client?.timezone ?? "",
    phone: client?.phone ?? "",
    addressLine1: client?.addressLine1 ?? "",
    addressLine2: client?.addressLine2 ?? "",
    city: client?.city ?? "",
    region: client?.region ?? "",
    postalCode: client?.postalCode ?? "",
    country: client?.country ?? "",
    notes: client?.notes ?? "",
  };
}

const blankToNull = (text: string): string | null => (text.trim() === "" ? null : text);

/** The request body: optional fields left blank are sent as null ("no phone"), not as "". */
export function toClientInput(values: ClientFormValues): ClientInput {
  return {
    name: values.name,
    code: values.code,
    status: values.status,
    timezone: values.timezone,
    phone: blankToNull(values.phone.replace(/[\s().-]/g, "")),
    addressLine1: blankToNull(values.addressLine1),
    addressLine2: blankToNull(values.addressLine2),
    city: blankToNull(values.city),
    region: blankToNull(values.region),
    postalCode: blankToNull(values.postalCode),
    country: blankToNull(values.country),
    notes: blankToNull(values.notes),
  };
}

/** Labels of the client's fields, shared by the form, the overview and the conflict comparison. */
export const clientFieldLabels: Record<keyof ClientFormValues, string> = {
  name: "Name",
  code: "Code",
  status: "Status",
  timezone: "Time zone",
  phone: "Phone",
  addressLine1: "Address line 1",
  addressLine2: "Address line 2",
  city: "City",
  region: "State or region",
  postalCode: "Postal code",
  country: "Country",
  notes: "Notes",
};

/** The inputs of the client form (create and edit share them). */
export function ClientFormFields({ form }: { form: ClientForm }) {
  const { control } = form;
  const field = (name: keyof ClientFormValues) => ({ control, name, label: clientFieldLabels[name] });
  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, md: 8 }}>
        <FormTextField {...field("name")} required fullWidth autoComplete="organization" />
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <FormTextField
          {...field("code")}
          required
          help="2–16 letters, digits or dashes; unique"
          fullWidth
          slotProps={{ htmlInput: { style: { textTransform: "uppercase" }, autoCapitalize: "characters" } }}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 4 }}>
        <FormSelectField {...field("status")} required fullWidth options={labelledOptions(clientStatusLabels)} />
      </Grid>
      <Grid size={{ xs: 12, sm: 8 }}>
        <TimeZoneField
          {...field("timezone")}
          required
          help="Billing months and reports are cut in this zone, e.g. America/Chicago"
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField
          {...field("phone")}
          help="International form, e.g. +15555550100"
          fullWidth
          type="tel"
          autoComplete="tel"
        />
      </Grid>
      <Grid size={{ xs: 12 }}>
        <FormTextField {...field("addressLine1")} fullWidth autoComplete="address-line1" />
      </Grid>
      <Grid size={{ xs: 12 }}>
        <FormTextField {...field("addressLine2")} fullWidth autoComplete="address-line2" />
      </Grid>
      <Grid size={{ xs: 12, sm: 6, md: 3 }}>
        <FormTextField {...field("city")} fullWidth autoComplete="address-level2" />
      </Grid>
      <Grid size={{ xs: 12, sm: 6, md: 3 }}>
        <FormTextField {...field("region")} fullWidth autoComplete="address-level1" />
      </Grid>
      <Grid size={{ xs: 12, sm: 6, md: 3 }}>
        <FormTextField {...field("postalCode")} fullWidth autoComplete="postal-code" />
      </Grid>
      <Grid size={{ xs: 12, sm: 6, md: 3 }}>
        <FormTextField {...field("country")} fullWidth autoComplete="country-name" />
      </Grid>
      <Grid size={{ xs: 12 }}>
        <FormTextField {...field("notes")} fullWidth multiline minRows={3} />
      </Grid>
    </Grid>
  );
}
