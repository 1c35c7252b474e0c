import { type CriticalFindingStatus, protocolContentSchema } from "@vigil/contract";

/*
 * The critical-finding loop's clock (PRODUCT.md §11), as pure rules: the window a finding must be acknowledged in, when
 * its escalations fall due, when a failed message is tried again, and whether it was acknowledged in time.
 */

const minute = 60_000;

/** A client without any protocol revision is held to the protocol's default window, as a new revision starts from. */
export const defaultWindowMinutes = protocolContentSchema.parse({ transferForm: { fields: [] } }).criticalNotification
  .withinMinutes;

export type ProtocolWindow = { id: string; criticalNotification: { withinMinutes: number } };

/**
 * The window and the revision it came from: the case's pinned protocol revision (pinned when monitoring started), else
 * the client's current one (a case raised on before any pin), else the default.
 */
export function findingWindowOf(
  pinned: ProtocolWindow | undefined,
  current: ProtocolWindow | undefined,
): { windowMinutes: number; protocolRevisionId: string | null } {
  const source = pinned ?? current;
  if (!source) return { windowMinutes: defaultWindowMinutes, protocolRevisionId: null };
  return { windowMinutes: source.criticalNotification.withinMinutes, protocolRevisionId: source.id };
}

/** By when someone must have acknowledged: the window counts from the moment the finding was raised. */
export function dueAtOf(raisedAt: Date, windowMinutes: number): Date {
  return new Date(raisedAt.getTime() + windowMinutes * minute);
}

/**
 * The escalation after the one due at `previousDue`, sent at `now`: one interval later; but a server that was down
 * past several intervals sends one escalation when it is back, and the next a whole interval after that, rather than
 * a burst of the ones it missed.
 */
export function nextEscalationAfter(previousDue: Date, now: Date, intervalMinutes: number): Date {
  const scheduled = previousDue.getTime() + intervalMinutes * minute;
  return new Date(scheduled > now.getTime() ? scheduled : now.getTime() + intervalMinutes * minute);
}

/** Whether an escalation is owed at `now`: only while the finding is open and its next escalation has come. */
export function isEscalationDue(
  finding: { status: CriticalFindingStatus; nextEscalationAt: Date | null },
  now: Date,
): boolean {
  return (
    finding.status === "open" &&
    finding.nextEscalationAt !== null &&
    finding.nextEscalationAt.getTime() <= now.getTime()
  );
}

const firstRetryMs = 30_000;
const longestRetryMs = 15 * minute;

/** How long after its `attempt`-th failed attempt a message is tried again: 30 s, doubling, at most 15 minutes. */
export function retryDelayMs(attempt: number): number {
  return Math.min(firstRetryMs * 2 ** Math.max(0, attempt - 1), longestRetryMs);
}

/** After a failed attempt: tried again later, or failed for good once every attempt is spent. */
export function afterFailedAttempt(
  attempts: number,
  maxAttempts: number,
  now: Date,
): { status: "failed" } | { status: "pending"; nextAttemptAt: Date } {
  if (attempts >= maxAttempts) return { status: "failed" };
  return { status: "pending", nextAttemptAt: new Date(now.getTime() + retryDelayMs(attempts)) };
}

/**
 * Acknowledged by `dueAt` (true), after it or still open past it (false); null while open and not yet due, and for a
 * cancelled finding, which owes nothing.
 */
export function withinWindowOf(
  finding: { status: CriticalFindingStatus; dueAt: Date; acknowledgedAt: Date | null },
  now: Date,
): boolean | null {
  if (finding.status === "acknowledged" && finding.acknowledgedAt) {
    return finding.acknowledgedAt.getTime() <= finding.dueAt.getTime();
  }
  if (finding.status === "open") return now.getTime() > finding.dueAt.getTime() ? false : null;
  return null;
}
