import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import {
  type ClientBillingProfile,
  type Contact,
  clientBillingProfileSchema,
  idSchema,
  invoiceDeliveryModeSchema,
  invoiceDeliveryModes,
  type SetClientBillingProfile,
  taxRateInputSchema,
} from "@vigil/contract";
import { useId, useState } from "react";
import { useController, useWatch } from "react-hook-form";
import { z } from "zod";
import { useClientContacts } from "../../../api/list-client-contacts";
import { EditConflict } from "../../../components/feedback/edit-conflict";
import { LoadingScreen } from "../../../components/feedback/loading-screen";
import { QueryError } from "../../../components/feedback/query-error";
import { CheckboxField } from "../../../components/forms/checkbox-field";
import { ContactPicker } from "../../../components/forms/contact-picker";
import {
  apiErrorOf,
  currentFromDetails,
  labelledMessage,
  serverFieldErrors,
} from "../../../components/forms/field-messages";
import { FormTextField } from "../../../components/forms/form-text-field";
import { FormSelectField, optionsOf } from "../../../components/forms/select-field";
import { type ContractForm, showServerErrors, useContractForm } from "../../../components/forms/use-contract-form";
import { useBillingProfile, useSetBillingProfile } from "../api/billing-profile";

const daysList = /^(\d{1,3}(\s*,\s*\d{1,3})*)?$/;

function daysOf(text: string): number[] {
  return text.trim() === "" ? [] : text.split(",").map((day) => Number(day.trim()));
}

/** The form's text fields as typed, checked with the contract's words (the body is built from them on submit). */
const profileFormSchema = z
  .object({
    legalName: z.string().trim().max(300, "must be 300 characters or fewer"),
    poNumber: z.string().trim().max(100, "must be 100 characters or fewer"),
    paymentTermsDays: z
      .string()
      .trim()
      .regex(/^\d{1,3}$/, "must be a whole number of days, such as 30")
      .refine((days) => Number(days) <= 365, "must be 365 days or fewer"),
    taxRatePercent: z.union([z.literal(""), taxRateInputSchema]),
    showPatientNames: z.boolean(),
    billingContactIds: z.array(idSchema).max(20, "at most 20 contacts"),
    sendOnIssue: z.boolean(),
    invoiceDelivery: invoiceDeliveryModeSchema,
    remindersEnabled: z.boolean(),
    reminderDays: z
      .string()
      .trim()
      .regex(daysList, "must be days past the due date separated by commas, such as 7, 30")
      .refine((text) => daysOf(text).every((day) => day >= 1 && day <= 365), "must each be 1 to 365 days")
      .refine((text) => new Set(daysOf(text)).size === daysOf(text).length, "must name each day once")
      .refine((text) => daysOf(text).length <= 5, "must be at most 5 reminders"),
  })
  .refine((values) => !values.sendOnIssue || values.billingContactIds.length > 0, {
    path: ["billingContactIds"],
    message: "must name at least one contact when invoices are sent on issue",
  })
  .refine((values) => !values.remindersEnabled || values.reminderDays.trim() !== "", {
    path: ["reminderDays"],
    message: "are required while reminders are on",
  });

type ProfileValues = z.input<typeof profileFormSchema>;
type ProfileForm = ContractForm<ProfileValues, typeof profileFormSchema>;

function valuesOf(profile: ClientBillingProfile): ProfileValues {
  return {
    legalName: profile.legalName ?? "",
    poNumber: profile.poNumber ?? "",
    paymentTermsDays: String(profile.paymentTermsDays),
    taxRatePercent: profile.taxRatePercent ?? "",
    showPatientNames: profile.showPatientNames,
    billingContactIds: profile.billingContactIds,
    sendOnIssue: profile.sendOnIssue,
    invoiceDelivery: profile.invoiceDelivery,
    remindersEnabled: profile.remindersEnabled,
    reminderDays: profile.reminderDays.join(", "),
  };
}

function bodyOf(values: z.output<typeof profileFormSchema>, baseVersion: number | null): SetClientBillingProfile {
  return {
    legalName: values.legalName || null,
    poNumber: values.poNumber || null,
    paymentTermsDays: Number(values.paymentTermsDays),
    taxRatePercent: values.taxRatePercent || null,
    showPatientNames: values.showPatientNames,
    billingContactIds: values.billingContactIds,
    sendOnIssue: values.sendOnIssue,
    invoiceDelivery: values.invoiceDelivery,
    remindersEnabled: values.remindersEnabled,
    reminderDays: daysOf(values.reminderDays),
    baseVersion,
  };
}

const yesNo = (value: boolean) => (value ? "Yes" : "No");

const deliveryLabels = {
  attachment: "The PDF attached to the e-mail",
  link: "A one-time link to the PDF",
} as const;

function compareRows(theirs: ClientBillingProfile, mine: ProfileValues) {
  const their = valuesOf(theirs);
  return [
    { key: "legalName", label: "Legal name", left: their.legalName, right: mine.legalName },
    { key: "poNumber", label: "PO number", left: their.poNumber, right: mine.poNumber },
    { key: "paymentTermsDays", label: "Payment terms", left: their.paymentTermsDays, right: mine.paymentTermsDays },
    { key: "taxRatePercent", label: "Tax rate", left: their.taxRatePercent, right: mine.taxRatePercent },
    {
      key: "showPatientNames",
      label: "Patient names",
      left: yesNo(their.showPatientNames),
      right: yesNo(mine.showPatientNames),
    },
    { key: "sendOnIssue", label: "Send on issue", left: yesNo(their.sendOnIssue), right: yesNo(mine.sendOnIssue) },
    {
      key: "invoiceDelivery",
      label: "Invoice delivery",
      left: deliveryLabels[their.invoiceDelivery],
      right: deliveryLabels[mine.invoiceDelivery],
    },
    { key: "reminders", label: "Reminder days", left: their.reminderDays, right: mine.reminderDays },
  ];
}

const contactsLegend = "Billing contacts";

function BillingContactsField({ form, contacts }: { form: ProfileForm; contacts: readonly Contact[] }) {
  const { field, fieldState } = useController({ control: form.control, name: "billingContactIds" });
  const message = fieldState.error?.message;
  return (
    <ContactPicker
      legend={contactsLegend}
      help="Invoices, credit notes and overdue reminders are e-mailed to them, as the invoice delivery below says."
      contacts={contacts}
      value={field.value}
      onChange={field.onChange}
      onBlur={field.onBlur}
      inputRef={field.ref}
      error={message ? labelledMessage(contactsLegend, message) : undefined}
    />
  );
}

/**
 * How a client is invoiced (BILLING.md "Invoices"): bill-to, terms, tax, patient names on lines, who receives the
 * invoices and reminders. Saves name the version the user saw; if someone saved first (409) nothing is saved and
 * the user compares, reloads theirs or saves over it knowingly.
 */
function ProfileEditor({
  clientId,
  profile,
  contacts,
  canWrite,
}: {
  clientId: string;
  profile: ClientBillingProfile;
  contacts: readonly Contact[];
  canWrite: boolean;
}) {
  const save = useSetBillingProfile();
  const [baseVersion, setBaseVersion] = useState(profile.version);
  const [theirs, setTheirs] = useState<ClientBillingProfile | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const form = useContractForm({ schema: profileFormSchema, defaultValues: valuesOf(profile) });
  const remindersEnabled = useWatch({ control: form.control, name: "remindersEnabled" });
  const mine = useWatch({ control: form.control }) as ProfileValues;

  const submit = (version: number | null) =>
    form.handleSubmit((values) => {
      setFailure(null);
      setSaved(false);
      save.mutate(
        { clientId, input: bodyOf(values, version) },
        {
          onSuccess: (next) => {
            form.reset(valuesOf(next));
            setBaseVersion(next.version);
            setTheirs(null);
            setSaved(true);
          },
          onError: (error) => {
            const body = apiErrorOf(error);
            if (body?.status === 409) {
              const current = clientBillingProfileSchema.safeParse(currentFromDetails(error));
              if (current.success) {
                setTheirs(current.data);
                return;
              }
            }
            if (!showServerErrors(form.setError, serverFieldErrors(error))) setFailure(body?.message ?? String(error));
          },
        },
      );
    });

  return (
    <Box component="form" noValidate onSubmit={submit(baseVersion)} aria-label="Billing profile">
      {theirs ? (
        <EditConflict
          title="Someone else saved this billing profile first"
          rows={compareRows(theirs, mine)}
          busy={save.isPending}
          onReload={() => {
            form.reset(valuesOf(theirs));
            setBaseVersion(theirs.version);
            setTheirs(null);
          }}
          onOverwrite={() => void submit(theirs.version)()}
        />
      ) : null}
      {saved ? (
        <Alert severity="success" role="status" sx={{ mb: 2 }}>
          The billing profile is saved. Invoices issued from now on use it; issued ones keep theirs.
        </Alert>
      ) : null}
      {failure ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {failure}
        </Alert>
      ) : null}
      <fieldset disabled={!canWrite || save.isPending} style={{ border: 0, margin: 0, padding: 0 }}>
        <Stack spacing={2} sx={{ maxWidth: 640 }}>
          <FormTextField
            control={form.control}
            name="legalName"
            label="Legal name"
            help="Printed under Bill to; the client's name when empty."
          />
          <FormTextField
            control={form.control}
            name="poNumber"
            label="PO number"
            help="The hospital's purchase order, printed on its invoices."
          />
          <FormTextField
            control={form.control}
            name="paymentTermsDays"
            label="Payment terms (days)"
            inputMode="numeric"
            help="Net days: the due date is the issue date plus these."
          />
          <FormTextField control={form.control} name="taxRatePercent" label="Tax rate (%)" help="Empty for no tax." />
          <CheckboxField
            control={form.control}
            name="showPatientNames"
            label="Patient names on invoice lines"
            help="Off unless the hospital asks: an invoice travels to accounts payable."
          />
          <BillingContactsField form={form} contacts={contacts} />
          <CheckboxField
            control={form.control}
            name="sendOnIssue"
            label="E-mail each invoice to the billing contacts when it is issued"
            help="Any invoice can also be sent, or sent again, from its page."
          />
          <FormSelectField
            control={form.control}
            name="invoiceDelivery"
            label="Invoice delivery"
            options={optionsOf(invoiceDeliveryModes, deliveryLabels)}
            help="A link, for hospitals whose mail refuses attachments, downloads the PDF as issued once and expires like a report's link; each sending gets a new one."
          />
          <CheckboxField
            control={form.control}
            name="remindersEnabled"
            label="Remind the billing contacts of overdue invoices"
            help="Untick if the client opts out of reminders."
          />
          {remindersEnabled ? (
            <FormTextField
              control={form.control}
              name="reminderDays"
              label="Reminder days"
              help="Days past the due date, separated by commas, such as 7, 30."
            />
          ) : null}
          {canWrite ? (
            <Box>
              <Button type="submit" variant="contained" disabled={save.isPending}>
                Save billing profile
              </Button>
            </Box>
          ) : null}
        </Stack>
      </fieldset>
    </Box>
  );
}

/** The client billing page's "Billing profile" section; read only when opened. */
export function BillingProfileSection({ clientId, canWrite }: { clientId: string; canWrite: boolean }) {
  const [open, setOpen] = useState(false);
  const regionId = useId();
  const profile = useBillingProfile(clientId, { enabled: open });
  const contacts = useClientContacts(clientId, { enabled: open });
  return (
    <Box component="section" aria-label="Billing profile" sx={{ mt: 3 }}>
      <Button variant="outlined" aria-expanded={open} aria-controls={regionId} onClick={() => setOpen((was) => !was)}>
        {open ? "Hide billing profile" : "Billing profile"}
      </Button>
      {open ? (
        <Box id={regionId} sx={{ mt: 2 }}>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            How this client is invoiced and who receives its invoices and reminders.
          </Typography>
          {profile.isPending || contacts.isPending ? (
            <LoadingScreen label="Loading the billing profile…" />
          ) : profile.isError ? (
            <QueryError what="The billing profile" error={profile.error} onRetry={() => void profile.refetch()} />
          ) : contacts.isError ? (
            <QueryError what="The client's contacts" error={contacts.error} onRetry={() => void contacts.refetch()} />
          ) : (
            <ProfileEditor clientId={clientId} profile={profile.data} contacts={contacts.data} canWrite={canWrite} />
          )}
        </Box>
      ) : null}
    </Box>
  );
}
