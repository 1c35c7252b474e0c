import { z } from "zod";
import { pageOf, pageQuerySchema } from "../envelope.js";
import { pages } from "../pages.js";
import type { CaseStage } from "./case-workflow.js";
import { idSchema, isoDateTimeSchema } from "./common.js";
import { type ClockKind, clockKindSchema } from "./watch.js";
import { clockActionTabs } from "./watch-clock-kinds.js";

/** The states a running clock is alerted in (PRODUCT.md §10): its owner is told once of each. */
export const clockAlertStateSchema = z.enum(["due-soon", "overdue"]);
export type ClockAlertState = z.infer<typeof clockAlertStateSchema>;

/**
 * One notice to the signed-in user that a clock they own (or their group, the coordinators, owns) turned due soon or
 * overdue. It names the case by number and client only, never the patient: it travels to the app bar of every page
 * and, for users who opted in, by e-mail.
 */
export const clockAlertSchema = z.object({
  id: idSchema,
  caseId: idSchema,
  caseNumber: z.string(),
  client: z.object({ id: idSchema, name: z.string(), timezone: z.string() }),
  kind: clockKindSchema,
  state: clockAlertStateSchema,
  dueAt: isoDateTimeSchema,
  createdAt: isoDateTimeSchema,
  readAt: isoDateTimeSchema.nullable(),
  /** The web page (hash route) with the tab where the step that stops the clock is taken. */
  href: z.string(),
});
export type ClockAlert = z.infer<typeof clockAlertSchema>;

/** `GET /notifications/clock-alerts`: the caller's own alerts, newest first. */
export const clockAlertListQuerySchema = pageQuerySchema.extend({
  limit: z.coerce.number().int().min(1).max(200).default(20),
});
export type ClockAlertListQuery = z.output<typeof clockAlertListQuerySchema>;

export const clockAlertPageSchema = pageOf(clockAlertSchema).extend({
  /** How many of the caller's alerts (all pages) are still unread: the app bar's badge. */
  unread: z.number().int().min(0),
});
export type ClockAlertPage = z.infer<typeof clockAlertPageSchema>;

/** `POST /notifications/clock-alerts/read`: how many alerts this call marked, and what is left unread (none). */
export const clockAlertsReadSchema = z.object({ marked: z.number().int().min(0), unread: z.number().int().min(0) });
export type ClockAlertsRead = z.infer<typeof clockAlertsReadSchema>;

/** What a user wants besides the in-app list. E-mail goes to the account's verified address only. */
export const notificationPreferencesSchema = z.object({ emailClockAlerts: z.boolean() });
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;
export const notificationPreferencesInputSchema = z.strictObject({ emailClockAlerts: z.boolean() });
export type NotificationPreferencesInput = z.input<typeof notificationPreferencesInputSchema>;

export const clockAlertStateLabels: Record<ClockAlertState, string> = {
  "due-soon": "due soon",
  overdue: "overdue",
};

/** The case page an alert links to: the case's current stage, on the tab that stops the clock. */
export function clockAlertHref(caseStage: CaseStage, caseId: string, kind: ClockKind): string {
  return pages[`case-${caseStage}-detail`].href({ caseId, tab: clockActionTabs[kind] });
}
