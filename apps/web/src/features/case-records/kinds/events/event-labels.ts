import type { EventData, EventType, notificationMethods, skinConditions } from "@vigil/contract";

export const eventTypeLabels: Record<EventType, string> = {
  seizure: "Seizure",
  clinical: "Clinical event",
  "push-button": "Push-button event",
  artifact: "Artifact",
  equipment: "Equipment",
  "skin-check": "Skin check",
  "review-check": "Review check",
  notification: "Notification",
  other: "Other",
};

export const notificationMethodLabels: Record<(typeof notificationMethods)[number], string> = {
  phone: "Phone",
  page: "Page",
  text: "Text message",
  email: "Email",
  "in-person": "In person",
  other: "Other",
};

export const skinConditionLabels: Record<(typeof skinConditions)[number], string> = {
  intact: "Intact",
  redness: "Redness",
  breakdown: "Breakdown",
};

/** Printable fields for history diffs and conflicts (times as ISO instants: the tab shows them in the zone). */
export function flattenEvent(data: EventData): Record<string, string> {
  const fields: Record<string, string> = {
    Type: eventTypeLabels[data.type],
    "Occurred at": data.occurredAt,
    Description: data.description,
  };
  if (data.notification) {
    fields.Notified = data.notification.name;
    fields["Notified by"] = notificationMethodLabels[data.notification.method];
    fields["Notified at"] = data.notification.notifiedAt;
    fields["Acknowledged at"] = data.notification.acknowledgedAt ?? "";
  }
  if (data.skinCheck) {
    fields["Skin condition"] = skinConditionLabels[data.skinCheck.condition];
    fields["Skin sites"] = data.skinCheck.sites;
    fields["Action taken"] = data.skinCheck.actionTaken;
  }
  return fields;
}
