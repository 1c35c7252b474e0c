import Box from "@mui/material/Box";
import Grid from "@mui/material/Grid";
import Typography from "@mui/material/Typography";
import {
  type Contact,
  type EventData,
  type EventType,
  eventDataSchema,
  eventTypes,
  notificationMethods,
  skinConditions,
} from "@vigil/contract";
import { useEffect, useRef } from "react";
import { useWatch } from "react-hook-form";
import { useClientContacts } from "../../../../api/list-client-contacts";
import { useAccess } from "../../../../components/access/access-context";
import { isoToZonedInput, zonedInputToIso } from "../../../../components/dates/zoned-input";
import { ZonedTimeField } from "../../../../components/dates/zoned-time-field";
import { CheckboxField } from "../../../../components/forms/checkbox-field";
import { FormTextField } from "../../../../components/forms/form-text-field";
import { FormSelectField, optionsOf } from "../../../../components/forms/select-field";
import { useContractForm } from "../../../../components/forms/use-contract-form";
import type { RecordEditorProps } from "../../components/record-view";
import { RecordEditorForm } from "../form-parts";
import { eventTypeLabels, notificationMethodLabels, skinConditionLabels } from "./event-labels";

type NotificationMethod = (typeof notificationMethods)[number];
type SkinCondition = (typeof skinConditions)[number];

/** The editor's values: times as the client's wall clock, sub-forms always present (sent only when they apply). */
export type EventFormValues = {
  occurredAt: string;
  type: EventType | "";
  description: string;
  /** Someone was notified (always so for a notification event). */
  notified: boolean;
  notification: {
    contactId: string;
    name: string;
    method: NotificationMethod;
    notifiedAt: string;
    acknowledgedAt: string;
  };
  skinCheck: { condition: SkinCondition | ""; sites: string; actionTaken: string };
};

export function eventFormValues(data: EventData | undefined, zone: string, now = new Date()): EventFormValues {
  const nowInput = isoToZonedInput(now.toISOString(), zone);
  const notification = data?.notification;
  return {
    occurredAt: data ? isoToZonedInput(data.occurredAt, zone) : nowInput,
    type: data?.type ?? "",
    description: data?.description ?? "",
    notified: Boolean(notification),
    notification: {
      contactId: notification?.contactId ?? "",
      name: notification?.name ?? "",
      method: notification?.method ?? "phone",
      notifiedAt: notification ? isoToZonedInput(notification.notifiedAt, zone) : nowInput,
      acknowledgedAt: isoToZonedInput(notification?.acknowledgedAt, zone),
    },
    skinCheck: {
      condition: data?.skinCheck?.condition ?? "",
      sites: data?.skinCheck?.sites ?? "",
      actionTaken: data?.skinCheck?.actionTaken ?? "",
    },
  };
}

/** Values → the request's data: wall times read in the client's zone; a sub-form only when it applies. */
export function eventInput(zone: string) {
  // Empty → undefined, so the schema says "is required"; an unreadable time goes through to be called invalid.
  const instant = (text: string) => (text.trim() === "" ? undefined : (zonedInputToIso(text, zone) ?? text));
  return (values: EventFormValues) => ({
    occurredAt: instant(values.occurredAt),
    type: values.type || undefined,
    description: values.description,
    notification:
      values.notified || values.type === "notification"
        ? {
            contactId: values.notification.contactId || null,
            name: values.notification.name,
            method: values.notification.method,
            notifiedAt: instant(values.notification.notifiedAt),
            acknowledgedAt: instant(values.notification.acknowledgedAt) ?? null,
          }
        : null,
    skinCheck:
      values.type === "skin-check"
        ? {
            condition: values.skinCheck.condition || undefined,
            sites: values.skinCheck.sites,
            actionTaken: values.skinCheck.actionTaken,
          }
        : null,
  });
}

function contactHelp(contact: Contact | undefined): string | undefined {
  if (!contact) return undefined;
  const parts = [contact.role, contact.phone, contact.email].filter(Boolean);
  return parts.length ? parts.join(" · ") : undefined;
}

/**
 * An event: what happened and when (in the client's zone), who was notified — one of the client's contacts or a
 * typed name — how and when they acknowledged, and for a skin check the skin's condition.
 */
export function EventEditor(props: RecordEditorProps<EventData>) {
  const { caseItem, initial } = props;
  const zone = caseItem.client.timezone;
  const { can } = useAccess();
  const contacts = useClientContacts(caseItem.client.id, { enabled: can("clients:read") });
  const form = useContractForm({
    schema: eventDataSchema,
    defaultValues: eventFormValues(initial, zone),
    toInput: eventInput(zone),
  });
  const { control } = form;
  const type = useWatch({ control, name: "type" });
  const notified = useWatch({ control, name: "notified" });
  const contactId = useWatch({ control, name: "notification.contactId" });
  const contactList = contacts.data ?? [];
  const chosen = contactList.find((contact) => contact._id === contactId);

  // Picking a contact copies their name (the record keeps who it was even if the contact changes later).
  const picked = useRef(contactId);
  useEffect(() => {
    if (contactId === picked.current) return;
    picked.current = contactId;
    if (chosen) form.setValue("notification.name", chosen.name, { shouldDirty: true, shouldValidate: true });
  }, [contactId, chosen, form]);

  // A notification event always names who was told: the box is ticked (and stays so) for that type.
  useEffect(() => {
    if (type === "notification" && !form.getValues("notified")) form.setValue("notified", true);
  }, [type, form]);

  const showNotification = notified || type === "notification";
  const time = (
    name: "occurredAt" | "notification.notifiedAt" | "notification.acknowledgedAt",
    label: string,
    note: string | undefined,
    deps?: ("notification.notifiedAt" | "notification.acknowledgedAt")[],
  ) => (
    <ZonedTimeField
      control={control}
      name={name}
      label={label}
      timeZone={zone}
      note={note}
      fullWidth
      required={name !== "notification.acknowledgedAt"}
      deps={deps}
    />
  );

  return (
    <RecordEditorForm form={form} label="Event" editor={props}>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, sm: 6 }}>
          <FormSelectField
            control={control}
            name="type"
            label="Type"
            required
            fullWidth
            emptyLabel="Choose…"
            options={optionsOf(eventTypes, eventTypeLabels)}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>{time("occurredAt", "Occurred at", undefined)}</Grid>
        <Grid size={12}>
          <FormTextField control={control} name="description" label="Description" fullWidth multiline minRows={3} />
        </Grid>
        <Grid size={12}>
          <CheckboxField
            control={control}
            name="notified"
            label="Someone was notified"
            disabled={type === "notification"}
            help={type === "notification" ? "A notification event always names who was told" : undefined}
          />
        </Grid>
        {showNotification ? (
          <Grid size={12}>
            <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
              <Typography component="legend" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
                Notification
              </Typography>
              <Grid container spacing={2}>
                <Grid size={{ xs: 12, sm: 6 }}>
                  <FormSelectField
                    control={control}
                    name="notification.contactId"
                    label="Contact"
                    fullWidth
                    help={
                      contactHelp(chosen) ??
                      (contacts.isError ? "The client's contacts could not be loaded; type the name" : undefined)
                    }
                    emptyLabel="Someone else (type the name)"
                    options={contactList.map((contact) => ({
                      value: contact._id,
                      label: `${contact.name}${contact.role ? ` — ${contact.role}` : ""}${contact.isPrimary ? " (primary)" : ""}`,
                    }))}
                  />
                </Grid>
                <Grid size={{ xs: 12, sm: 6 }}>
                  <FormTextField control={control} name="notification.name" label="Name" required fullWidth />
                </Grid>
                <Grid size={{ xs: 12, sm: 4 }}>
                  <FormSelectField
                    control={control}
                    name="notification.method"
                    label="Method"
                    fullWidth
                    options={optionsOf(notificationMethods, notificationMethodLabels)}
                  />
                </Grid>
                <Grid size={{ xs: 12, sm: 4 }}>
                  {time("notification.notifiedAt", "Notified at", undefined, ["notification.acknowledgedAt"])}
                </Grid>
                <Grid size={{ xs: 12, sm: 4 }}>
                  {time("notification.acknowledgedAt", "Acknowledged at", "empty until they acknowledge", [
                    "notification.notifiedAt",
                  ])}
                </Grid>
              </Grid>
            </Box>
          </Grid>
        ) : null}
        {type === "skin-check" ? (
          <Grid size={12}>
            <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
              <Typography component="legend" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
                Skin check
              </Typography>
              <Grid container spacing={2}>
                <Grid size={{ xs: 12, sm: 4 }}>
                  <FormSelectField
                    control={control}
                    name="skinCheck.condition"
                    label="Skin condition"
                    required
                    fullWidth
                    emptyLabel="Choose…"
                    options={optionsOf(skinConditions, skinConditionLabels)}
                  />
                </Grid>
                <Grid size={{ xs: 12, sm: 8 }}>
                  <FormTextField
                    control={control}
                    name="skinCheck.sites"
                    label="Sites checked"
                    help="e.g. Fp1, Fp2, O1, O2, behind the ears"
                    fullWidth
                  />
                </Grid>
                <Grid size={12}>
                  <FormTextField
                    control={control}
                    name="skinCheck.actionTaken"
                    label="Action taken"
                    fullWidth
                    multiline
                    minRows={2}
                  />
                </Grid>
              </Grid>
            </Box>
          </Grid>
        ) : null}
      </Grid>
    </RecordEditorForm>
  );
}
