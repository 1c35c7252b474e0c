import { and, eq, sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client.js";
import { findingDeliveries } from "../../db/schema.js";

/** A delivery row (declared here too: findings-repository.ts imports this file). */
type DeliveryRow = typeof findingDeliveries.$inferSelect;

/** How long a claimed message is this instance's to send before another may take it (it died mid-send). */
export const deliveryLeaseMs = 60_000;

/** The start of `last_error` on messages never sent because their finding was closed first: not a delivery failure. */
export const notSentPrefix = "Not sent:";

/** Why a message is recorded `may-have-been-sent` once its finding closed (the status's meaning, in words). */
export const mayHaveBeenSentReason =
  "May have been sent: an earlier try may have handed it to the relay or gateway (its server stopped, or the " +
  "transport timed out, before the answer was recorded), and the finding closed before it could be tried again.";

/**
 * A transport error after which the message may still have left (the relay or gateway may have taken it and the
 * answer was lost): timeouts and dropped connections. Refusals (a 5xx answer, a rejected address) are not.
 */
export const uncertainErrorPattern =
  "(timed? ?out|timeout|ETIMEDOUT|ECONNRESET|socket hang up|aborted|closed unexpectedly)";

type ClaimedRow = {
  id: string;
  recipient_id: string;
  finding_id: string;
  purpose: "notice" | "cancellation";
  channel: "email" | "sms";
  destination: string;
  attempts: number;
  was: string;
  last_error: string | null;
};

export type ClaimedDelivery = Pick<
  DeliveryRow,
  "id" | "recipientId" | "findingId" | "purpose" | "channel" | "destination" | "attempts"
> & {
  /**
   * An earlier try may have handed the message over: it was claimed from an instance whose lease ran out (it died
   * mid-send), or its last error was a timeout or a dropped connection.
   */
  mayHaveLeft: boolean;
};

/**
 * Claims up to `limit` messages due at `now` — waiting ones whose time has come, and ones whose sender's lease ran out
 * — in one statement: the rows are locked FOR UPDATE SKIP LOCKED (another instance claiming at the same moment takes
 * others), marked `sending` with a lease and their attempt counted, and the claim commits before anything is sent.
 */
export async function claimDueDeliveries(db: Db, now: Date, limit: number): Promise<ClaimedDelivery[]> {
  const at = now.toISOString();
  const leaseUntil = new Date(now.getTime() + deliveryLeaseMs).toISOString();
  const rows = await queryRows<ClaimedRow>(
    db,
    sql`update ${findingDeliveries} as d
        set status = 'sending', attempts = d.attempts + 1, lease_until = ${leaseUntil}::timestamptz
        from (
          select id, status as was from ${findingDeliveries}
          where (status = 'pending' and next_attempt_at <= ${at}::timestamptz)
             or (status = 'sending' and lease_until <= ${at}::timestamptz)
          order by next_attempt_at, id
          limit ${limit}
          for update skip locked) as picked
        where d.id = picked.id
        returning d.id, d.recipient_id, d.finding_id, d.purpose, d.channel, d.destination, d.attempts, picked.was,
          d.last_error`,
  );
  return rows.map((row) => ({
    id: row.id,
    recipientId: row.recipient_id,
    findingId: row.finding_id,
    purpose: row.purpose,
    channel: row.channel,
    destination: row.destination,
    attempts: Number(row.attempts),
    mayHaveLeft: row.was === "sending" || new RegExp(uncertainErrorPattern, "i").test(row.last_error ?? ""),
  }));
}

/**
 * Records the outcome of the attempt this instance claimed (still `sending`, with the attempt count it claimed), or
 * nothing when another instance took the message over after the lease ran out. Answers whether it was recorded.
 */
export async function settleDelivery(
  tx: Db,
  claimed: Pick<ClaimedDelivery, "id" | "attempts">,
  outcome:
    | { status: "sent"; at: Date }
    | { status: "pending"; error: string; nextAttemptAt: Date }
    | { status: "failed" | "not-needed" | "may-have-been-sent"; error: string; at: Date },
): Promise<boolean> {
  const values =
    outcome.status === "sent"
      ? { status: "sent" as const, sentAt: outcome.at, lastError: null, leaseUntil: null }
      : outcome.status === "not-needed" || outcome.status === "may-have-been-sent"
        ? { status: outcome.status, lastError: outcome.error, nextAttemptAt: outcome.at, leaseUntil: null }
        : outcome.status === "pending"
          ? {
              status: "pending" as const,
              lastError: outcome.error,
              nextAttemptAt: outcome.nextAttemptAt,
              leaseUntil: null,
            }
          : // A failed message keeps, as its next attempt time, when it failed: the delivery health counts by it.
            { status: "failed" as const, lastError: outcome.error, nextAttemptAt: outcome.at, leaseUntil: null };
  const rows = await tx
    .update(findingDeliveries)
    .set(values)
    .where(
      and(
        eq(findingDeliveries.id, claimed.id),
        eq(findingDeliveries.status, "sending"),
        eq(findingDeliveries.attempts, claimed.attempts),
      ),
    )
    .returning({ id: findingDeliveries.id });
  return rows.length > 0;
}

export type DeliveryHealthRow = {
  failedLastDay: number;
  waitingRetries: number;
  pending: number;
  oldestPendingAt: Date | null;
};

/**
 * The delivery queue's health at `now`: messages failed for good in the last 24 hours (those never sent because their
 * finding closed first aside), messages waiting for a retry, and the oldest message not yet sent.
 */
export async function findDeliveryHealth(db: Db, now: Date): Promise<DeliveryHealthRow> {
  const dayAgo = new Date(now.getTime() - 24 * 3_600_000).toISOString();
  const [row] = await queryRows<{
    failed: number;
    retries: number;
    pending: number;
    oldest: string | Date | null;
  }>(
    db,
    sql`select
          count(*) filter (where status = 'failed' and next_attempt_at >= ${dayAgo}::timestamptz
            and coalesce(last_error, '') not like ${`${notSentPrefix}%`})::int as failed,
          count(*) filter (where status = 'pending' and attempts > 0)::int as retries,
          count(*) filter (where status in ('pending', 'sending'))::int as pending,
          min(created_at) filter (where status in ('pending', 'sending')) as oldest
        from ${findingDeliveries}
        where status in ('pending', 'sending') or next_attempt_at >= ${dayAgo}::timestamptz`,
  );
  return {
    failedLastDay: Number(row?.failed ?? 0),
    waitingRetries: Number(row?.retries ?? 0),
    pending: Number(row?.pending ?? 0),
    oldestPendingAt: row?.oldest ? new Date(row.oldest) : null,
  };
}
