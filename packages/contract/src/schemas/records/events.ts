import { z } from "zod";
import { idSchema, isoDateTimeSchema } from "../common.js";
import { historyOf, itemFields, listOf, required, revisionRequestOf, text } from "./record-shapes.js";

export const eventTypes = [
  "seizure",
  "clinical",
  "push-button",
  "artifact",
  "equipment",
  "skin-check",
  "review-check",
  "notification",
  "other",
] as const;
export const eventTypeSchema = z.enum(eventTypes);
export type EventType = z.infer<typeof eventTypeSchema>;

export const notificationMethods = ["phone", "page", "text", "email", "in-person", "other"] as const;

/** Who was told, how and when, and when they acknowledged (null while they have not). */
export const eventNotificationSchema = z
  .object({
    /** A contact of the case's client; its name is copied so the record keeps who it was. */
    contactId: idSchema.nullable().default(null),
    name: required(200),
    method: z.enum(notificationMethods),
    notifiedAt: isoDateTimeSchema,
    acknowledgedAt: isoDateTimeSchema.nullable().default(null),
  })
  .refine((value) => !value.acknowledgedAt || Date.parse(value.acknowledgedAt) >= Date.parse(value.notifiedAt), {
    message: "must not be before the notification",
    path: ["acknowledgedAt"],
  });

export const skinConditions = ["intact", "redness", "breakdown"] as const;
export const skinCheckSchema = z.object({
  condition: z.enum(skinConditions),
  sites: text(500),
  actionTaken: text(2000),
});

export const eventDataSchema = z
  .object({
    occurredAt: isoDateTimeSchema,
    type: eventTypeSchema,
    description: text(5000),
    notification: eventNotificationSchema.nullable().default(null),
    skinCheck: skinCheckSchema.nullable().default(null),
  })
  .refine((value) => value.type !== "notification" || value.notification !== null, {
    message: "a notification event needs who was notified",
    path: ["notification"],
  })
  .refine((value) => value.type !== "skin-check" || value.skinCheck !== null, {
    message: "a skin check needs the skin's condition",
    path: ["skinCheck"],
  });
export type EventData = z.infer<typeof eventDataSchema>;
export type EventInput = z.input<typeof eventDataSchema>;

export const eventRevisionRequestSchema = z.discriminatedUnion("change", revisionRequestOf(eventDataSchema));

export type EventRevisionRequest = z.input<typeof eventRevisionRequestSchema>;

export const eventItemSchema = z.object({ ...itemFields, kind: z.literal("event"), data: eventDataSchema });
export type EventItem = z.infer<typeof eventItemSchema>;

export const eventListSchema = listOf(
  eventItemSchema,
  z.object({
    /** Notifications not yet acknowledged. */
    unacknowledged: z.number().int().min(0),
  }),
);

export type EventList = z.infer<typeof eventListSchema>;

export const eventHistorySchema = historyOf(eventItemSchema, eventDataSchema);
