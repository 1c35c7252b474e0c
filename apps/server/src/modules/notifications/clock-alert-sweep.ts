import {
  type ClockAlertState,
  clockAlertHref,
  clockAlertKindLabels,
  clockAlertStateLabels,
  clockStateAt,
  formatInstantInZone,
} from "@vigil/contract";
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import { findUserById, getUserByUsername, listEnabledMembers } from "../../identity/user-directory.js";
import type { Message, MessageService } from "../../messaging/message-service.js";
import {
  type ClockAlertInsert,
  type ClockToAlert,
  findClocksToAlert,
  findEmailRecipients,
  insertClockAlerts,
  markClockAlertEmailed,
} from "./notifications-repository.js";

/** Clocks handled per sweep; more wait for the next one (every clock found is alerted, so the backlog shrinks). */
const clocksPerSweep = 1000;
const membersPerPage = 200;

export type SweepSettings = Pick<Config, "watch" | "publicUrl">;
export type SweepResult = { alerts: number; emails: number };

type Recipient = { username: string; sub: string | null };

/** Every enabled coordinator: who is told of the clocks nobody else owns (PRODUCT.md §10). */
async function listCoordinators(db: Db): Promise<Recipient[]> {
  const found: Recipient[] = [];
  for (let offset = 0; ; offset += membersPerPage) {
    const page = await listEnabledMembers(db, "coordinator", { limit: membersPerPage, offset });
    found.push(...page.items.map((member) => ({ username: member.username, sub: member.id })));
    if (page.items.length < membersPerPage) return found;
  }
}

async function findUser(db: Db, recipient: Recipient) {
  if (recipient.sub) return findUserById(db, recipient.sub);
  return getUserByUsername(db, recipient.username).catch(() => undefined);
}

/**
 * Who hears of one clock: its owner; and when the owner is the coordinators, or an owner who can no longer sign in
 * (disabled, or gone), every enabled coordinator. The owner keeps their own row either way, so the clock is not
 * looked at again by the next sweep.
 */
async function recipientsOf(db: Db, clock: ClockToAlert, coordinators: Recipient[]): Promise<Recipient[]> {
  if (!clock.ownerUsername) return coordinators;
  const owner = { username: clock.ownerUsername, sub: clock.ownerSub };
  const user = await findUser(db, owner);
  return user?.isEnabled ? [owner] : [owner, ...coordinators];
}

/**
 * The e-mail copy: as little patient data as lets the owner act — the case number, what is due and when in the
 * client's own time zone, and a link to the case (which asks them to sign in). Never the patient's name.
 */
export function clockAlertEmail(clock: ClockToAlert, state: ClockAlertState, publicUrl: string) {
  const what = clockAlertKindLabels[clock.kind];
  const dueText = formatInstantInZone(clock.dueAt, clock.clientTimezone);
  const link = `${publicUrl}/#${clockAlertHref(clock.caseStage, clock.caseId, clock.kind)}`;
  return {
    subject: `Vigil: ${what} ${clockAlertStateLabels[state]} — case ${clock.caseNumber}`,
    body: [
      `Case ${clock.caseNumber}: ${what} is ${clockAlertStateLabels[state]}.`,
      `Due: ${dueText}`,
      "",
      `Open the case: ${link}`,
      "",
      "You receive this because you asked for e-mail copies of your clock alerts (Account page in Vigil).",
    ].join("\n"),
  };
}

/**
 * Tells the owners of running clocks that turned due soon or overdue by `now`, once each (PRODUCT.md §10): an in-app
 * alert per recipient, and an e-mail to those who opted in. Every instance may sweep at the same time: the alerts'
 * unique key lets exactly one insert each row, and only the rows this sweep inserted are e-mailed. An e-mail is sent
 * after its alert is committed, at most once: a failed send is logged, not retried.
 */
export async function sweepClockAlerts(
  db: Db,
  settings: SweepSettings,
  messages: MessageService,
  now: Date = new Date(),
  log?: FastifyBaseLogger,
): Promise<SweepResult> {
  const coordinators = await listCoordinators(db);
  const clocks = await findClocksToAlert(
    db,
    now,
    settings.watch.dueSoonShare,
    coordinators.map((coordinator) => coordinator.username),
    clocksPerSweep,
  );
  if (clocks.length === 0) return { alerts: 0, emails: 0 };

  const rows: ClockAlertInsert[] = [];
  const stateOf = new Map<ClockToAlert, ClockAlertState>();
  for (const clock of clocks) {
    const dueAt = clock.dueAt.getTime();
    const dueSoonAt = dueAt - clock.windowMinutes * 60_000 * settings.watch.dueSoonShare;
    const state = clockStateAt({ dueSoonAt, dueAt, stoppedAt: null }, now.getTime());
    // The query's arithmetic and ours may differ by a microsecond at the edge: the contract's rule decides.
    if (state !== "due-soon" && state !== "overdue") continue;
    stateOf.set(clock, state);
    for (const recipient of await recipientsOf(db, clock, coordinators)) {
      rows.push({
        recipientUsername: recipient.username,
        caseId: clock.caseId,
        kind: clock.kind,
        state,
        dueAt: clock.dueAt,
        createdAt: now,
      });
    }
  }
  const inserted = await insertClockAlerts(db, rows);
  if (inserted.length === 0) return { alerts: 0, emails: 0 };

  const wantEmail = await findEmailRecipients(db, [...new Set(inserted.map((alert) => alert.recipientUsername))]);
  let emails = 0;
  for (const alert of inserted) {
    if (!wantEmail.has(alert.recipientUsername)) continue;
    const clock = clocks.find((candidate) => candidate.caseId === alert.caseId && candidate.kind === alert.kind);
    const state = clock && stateOf.get(clock);
    if (!clock || !state) continue;
    const recipient =
      clock.ownerUsername === alert.recipientUsername
        ? { username: alert.recipientUsername, sub: clock.ownerSub }
        : (coordinators.find((coordinator) => coordinator.username === alert.recipientUsername) ?? {
            username: alert.recipientUsername,
            sub: null,
          });
    const user = await findUser(db, recipient);
    // A verified address only: a mistyped, unconfirmed one must not receive case numbers (AUTH.md: contacts).
    if (!user?.isEnabled || !user.email || !user.emailVerified) continue;
    const message: Message = { channel: "email", to: user.email, ...clockAlertEmail(clock, state, settings.publicUrl) };
    try {
      await messages.send(message);
      await markClockAlertEmailed(db, alert.id, new Date());
      emails += 1;
    } catch (error) {
      log?.error({ err: error, alertId: alert.id }, "a clock alert's e-mail could not be sent");
    }
  }
  return { alerts: inserted.length, emails };
}
