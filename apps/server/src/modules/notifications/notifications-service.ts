import {
  type ClockAlert,
  type ClockAlertListQuery,
  type ClockAlertPage,
  type ClockAlertState,
  type ClockAlertsRead,
  clockAlertHref,
  type NotificationPreferences,
} from "@vigil/contract";
import type { Actor } from "../../audit/audited-write.js";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import {
  type ClockAlertRow,
  findClockAlert,
  findNotificationPreferences,
  insertClockAlerts,
  listClockAlerts,
  markAllClockAlertsRead,
  markClockAlertRead,
  upsertNotificationPreferences,
} from "./notifications-repository.js";

export function toClockAlert(row: ClockAlertRow): ClockAlert {
  return {
    id: row.id,
    caseId: row.caseId,
    caseNumber: row.caseNumber,
    client: { id: row.clientId, name: row.clientName, timezone: row.clientTimezone },
    kind: row.kind,
    state: row.state,
    dueAt: row.dueAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    readAt: row.readAt?.toISOString() ?? null,
    // The case's stage now, not when the alert was made: the link opens the case where it is.
    href: clockAlertHref(row.caseStage, row.caseId, row.kind),
  };
}

/**
 * Puts a critical finding in the bell of the staff it was sent to (PRODUCT.md §11): the case's reviewer when it is
 * raised (due soon: the hospital has its window to acknowledge), and each coordinator an escalation tells (overdue).
 * One entry per person, finding and state, however many escalations follow: the e-mails repeat, the bell does not.
 * In the caller's transaction; no e-mail copy, since the finding's own message is the e-mail.
 */
export async function alertStaffOfFinding(
  tx: Db,
  alert: { usernames: string[]; caseId: string; dueAt: Date; state: ClockAlertState; at: Date },
): Promise<void> {
  await insertClockAlerts(
    tx,
    [...new Set(alert.usernames)].map((recipientUsername) => ({
      recipientUsername,
      caseId: alert.caseId,
      kind: "critical-notification" as const,
      state: alert.state,
      dueAt: alert.dueAt,
      createdAt: alert.at,
    })),
  );
}

/** The caller's own alerts, newest first, with the count still unread (the app bar's badge). */
export async function listOwnClockAlerts(
  db: Db,
  username: string,
  query: ClockAlertListQuery,
): Promise<ClockAlertPage> {
  const { rows, total, unread } = await listClockAlerts(db, username, query);
  return { items: rows.map(toClockAlert), total, unread, limit: query.limit, offset: query.offset };
}

/** Marks one of the caller's alerts read; someone else's is as unknown as one that does not exist. */
export async function markOwnClockAlertRead(db: Db, username: string, id: string): Promise<ClockAlert> {
  if (!(await markClockAlertRead(db, username, id, new Date()))) {
    throw new AppError("not_found", `No clock alert with id ${id}.`);
  }
  const row = await findClockAlert(db, username, id);
  if (!row) throw new AppError("not_found", `No clock alert with id ${id}.`);
  return toClockAlert(row);
}

export async function markAllOwnClockAlertsRead(db: Db, username: string): Promise<ClockAlertsRead> {
  return { marked: await markAllClockAlertsRead(db, username, new Date()), unread: 0 };
}

/** No row yet: the defaults (the in-app list only, no e-mail). */
export async function getNotificationPreferences(db: Db, username: string): Promise<NotificationPreferences> {
  return (await findNotificationPreferences(db, username)) ?? { emailClockAlerts: false };
}

/** Replaces the caller's preferences; audited, since it decides where case numbers are sent. */
export async function setNotificationPreferences(
  db: Db,
  preferences: NotificationPreferences,
  actor: Actor,
): Promise<NotificationPreferences> {
  return db.transaction(async (tx) => {
    await upsertNotificationPreferences(tx, actor.username, preferences, new Date());
    await recordAudit(tx, {
      action: "notifications.preferences.update",
      outcome: "success",
      actor: { sub: actor.sub, username: actor.username },
      target: { type: "user", id: actor.username },
      ip: actor.ip,
      userAgent: actor.userAgent,
      details: { emailClockAlerts: preferences.emailClockAlerts },
    });
    return preferences;
  });
}
