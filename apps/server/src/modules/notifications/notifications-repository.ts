import type { CaseStage, ClockAlertState, ClockKind } from "@vigil/contract";
import { and, count, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client.js";
import { cases, clients, clockAlerts, notificationPreferences } from "../../db/schema.js";

/** A running clock past its "due soon" point that its owner has not been told of in its current state. */
export type ClockToAlert = {
  caseId: string;
  kind: ClockKind;
  dueAt: Date;
  windowMinutes: number;
  ownerSub: string | null;
  ownerUsername: string | null;
  caseNumber: string;
  caseStage: CaseStage;
  clientId: string;
  clientName: string;
  clientTimezone: string;
};

type ClockToAlertRow = {
  case_id: string;
  kind: ClockKind;
  due_at: Date | string;
  window_minutes: number;
  owner_sub: string | null;
  owner_username: string | null;
  case_number: string;
  case_stage: CaseStage;
  client_id: string;
  client_name: string;
  client_timezone: string;
};

/**
 * The kept running clocks (case_clocks) that are due soon or overdue at `now` and whose state has no alert yet: for a
 * clock with an owner, none to that owner; for the coordinators' clocks, none to any of `coordinators`. The state is
 * the contract's rule in SQL (overdue only after the due time), so a clock already overdue is told once, as overdue.
 */
export async function findClocksToAlert(
  db: Db,
  now: Date,
  dueSoonShare: number,
  coordinators: string[],
  limit: number,
): Promise<ClockToAlert[]> {
  const at = now.toISOString();
  const coordinatorList = sql`array[${sql.join(
    coordinators.map((name) => sql`${name}`),
    sql`, `,
  )}]::text[]`;
  const rows = await queryRows<ClockToAlertRow>(
    db,
    sql`
    select cc.case_id, cc.kind, cc.due_at, cc.window_minutes, cc.owner_sub, cc.owner_username,
      c.case_number, c.stage as case_stage, cl.id as client_id, cl.name as client_name, cl.timezone as client_timezone
    from case_clocks cc
    join cases c on c.id = cc.case_id
    join clients cl on cl.id = cc.client_id
    where cc.due_at - make_interval(secs => cc.window_minutes * 60 * ${dueSoonShare}::float8) <= ${at}::timestamptz
      and not exists (
        select 1 from clock_alerts a
        where a.recipient_username = any(
            case when cc.owner_username is null then ${coordinatorList} else array[cc.owner_username] end)
          and a.case_id = cc.case_id and a.kind = cc.kind and a.due_at = cc.due_at
          and a.state = case when cc.due_at < ${at}::timestamptz then 'overdue' else 'due-soon' end
      )
    order by cc.due_at
    limit ${limit}`,
  );
  return rows.map((row) => ({
    caseId: row.case_id,
    kind: row.kind,
    dueAt: new Date(row.due_at),
    windowMinutes: row.window_minutes,
    ownerSub: row.owner_sub,
    ownerUsername: row.owner_username,
    caseNumber: row.case_number,
    caseStage: row.case_stage,
    clientId: row.client_id,
    clientName: row.client_name,
    clientTimezone: row.client_timezone,
  }));
}

export type ClockAlertInsert = {
  recipientUsername: string;
  caseId: string;
  kind: ClockKind;
  state: ClockAlertState;
  dueAt: Date;
  createdAt: Date;
};

export type InsertedClockAlert = { id: string; recipientUsername: string; caseId: string; kind: ClockKind };

/**
 * Inserts the alerts; those another sweep (on any instance) inserted first are skipped by the unique key, so only the
 * rows returned here are new, and only they are e-mailed.
 */
export async function insertClockAlerts(db: Db, rows: ClockAlertInsert[]): Promise<InsertedClockAlert[]> {
  if (rows.length === 0) return [];
  return db.insert(clockAlerts).values(rows).onConflictDoNothing().returning({
    id: clockAlerts.id,
    recipientUsername: clockAlerts.recipientUsername,
    caseId: clockAlerts.caseId,
    kind: clockAlerts.kind,
  });
}

export async function markClockAlertEmailed(db: Db, id: string, at: Date): Promise<void> {
  await db.update(clockAlerts).set({ emailedAt: at }).where(eq(clockAlerts.id, id));
}

/** The usernames among `usernames` who asked for e-mail copies of their clock alerts. */
export async function findEmailRecipients(db: Db, usernames: string[]): Promise<Set<string>> {
  if (usernames.length === 0) return new Set();
  const rows = await db
    .select({ username: notificationPreferences.username })
    .from(notificationPreferences)
    .where(
      and(inArray(notificationPreferences.username, usernames), eq(notificationPreferences.emailClockAlerts, true)),
    );
  return new Set(rows.map((row) => row.username));
}

const alertColumns = {
  id: clockAlerts.id,
  caseId: clockAlerts.caseId,
  kind: clockAlerts.kind,
  state: clockAlerts.state,
  dueAt: clockAlerts.dueAt,
  createdAt: clockAlerts.createdAt,
  readAt: clockAlerts.readAt,
  caseNumber: cases.caseNumber,
  caseStage: cases.stage,
  clientId: clients.id,
  clientName: clients.name,
  clientTimezone: clients.timezone,
};

export type ClockAlertRow = {
  id: string;
  caseId: string;
  kind: ClockKind;
  state: ClockAlertState;
  dueAt: Date;
  createdAt: Date;
  readAt: Date | null;
  caseNumber: string;
  caseStage: CaseStage;
  clientId: string;
  clientName: string;
  clientTimezone: string;
};

function alertsWithCase(db: Db) {
  return db
    .select(alertColumns)
    .from(clockAlerts)
    .innerJoin(cases, eq(cases.id, clockAlerts.caseId))
    .innerJoin(clients, eq(clients.id, cases.clientId));
}

/** One user's alerts, newest first (the recipient index), and how many there are. */
export async function listClockAlerts(
  db: Db,
  username: string,
  page: { limit: number; offset: number },
): Promise<{ rows: ClockAlertRow[]; total: number; unread: number }> {
  const rows = await alertsWithCase(db)
    .where(eq(clockAlerts.recipientUsername, username))
    .orderBy(desc(clockAlerts.createdAt), desc(clockAlerts.id))
    .limit(page.limit)
    .offset(page.offset);
  const [totals] = await db
    .select({
      total: count(),
      unread: sql<number>`count(*) filter (where ${clockAlerts.readAt} is null)`.mapWith(Number),
    })
    .from(clockAlerts)
    .where(eq(clockAlerts.recipientUsername, username));
  return { rows, total: totals?.total ?? 0, unread: totals?.unread ?? 0 };
}

/** One alert of this recipient; undefined when there is none with this id, or it is someone else's. */
export async function findClockAlert(db: Db, username: string, id: string): Promise<ClockAlertRow | undefined> {
  const [row] = await alertsWithCase(db).where(
    and(eq(clockAlerts.id, id), eq(clockAlerts.recipientUsername, username)),
  );
  return row;
}

/** Marks one alert of this recipient read (a read one keeps its first reading time); false when it is not theirs. */
export async function markClockAlertRead(db: Db, username: string, id: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(clockAlerts)
    .set({ readAt: sql`coalesce(${clockAlerts.readAt}, ${at.toISOString()}::timestamptz)` })
    .where(and(eq(clockAlerts.id, id), eq(clockAlerts.recipientUsername, username)))
    .returning({ id: clockAlerts.id });
  return rows.length > 0;
}

/** Marks every unread alert of this recipient read; how many it marked. */
export async function markAllClockAlertsRead(db: Db, username: string, at: Date): Promise<number> {
  const rows = await db
    .update(clockAlerts)
    .set({ readAt: at })
    .where(and(eq(clockAlerts.recipientUsername, username), isNull(clockAlerts.readAt)))
    .returning({ id: clockAlerts.id });
  return rows.length;
}

/** The user's preference row; undefined when they never chose (the defaults apply). */
export async function findNotificationPreferences(
  db: Db,
  username: string,
): Promise<{ emailClockAlerts: boolean } | undefined> {
  const [row] = await db
    .select({ emailClockAlerts: notificationPreferences.emailClockAlerts })
    .from(notificationPreferences)
    .where(eq(notificationPreferences.username, username));
  return row;
}

export async function upsertNotificationPreferences(
  db: Db,
  username: string,
  preferences: { emailClockAlerts: boolean },
  at: Date,
): Promise<void> {
  await db
    .insert(notificationPreferences)
    .values({ username, emailClockAlerts: preferences.emailClockAlerts, updatedAt: at })
    .onConflictDoUpdate({
      target: notificationPreferences.username,
      set: { emailClockAlerts: preferences.emailClockAlerts, updatedAt: at },
    });
}
