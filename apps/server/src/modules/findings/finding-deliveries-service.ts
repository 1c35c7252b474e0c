import { type CaseStage, pages } from "@vigil/contract";
import { and, eq } from "drizzle-orm";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { findingDeliveries } from "../../db/schema.js";
import { type Message, maskDestination } from "../../messaging/message-service.js";
import { requireCase } from "../cases/cases-service.js";
import { requireClient } from "../clients/clients-service.js";
import { recordCaseChange } from "../watch/watch-service.js";
import {
  type ClaimedDelivery,
  claimDueDeliveries,
  findDeliveryHealth,
  mayHaveBeenSentReason,
  notSentPrefix,
  settleDelivery,
} from "./finding-deliveries-repository.js";
import { scheduleFindingMessages } from "./finding-job-kinds.js";
import { cancellationEmail, cancellationSms, findingEmail, findingSms } from "./finding-messages.js";
import { afterFailedAttempt } from "./finding-schedule.js";
import type { FindingsContext } from "./findings-context.js";
import { findFinding, findRecipient, insertDeliveries, updateFinding } from "./findings-repository.js";
import { signLinkToken } from "./link-tokens.js";

/** Messages claimed at once, and batches per pass: a pass ends, and the next one goes on with what is left. */
const claimBatch = 20;
const batchesPerPass = 10;

export type DeliveryPass = { sent: number; retrying: number; failed: number };

type Outcome =
  | { status: "sent" }
  | { status: "error"; error: string }
  | { status: "not-sent"; reason: string }
  | { status: "may-have-been-sent" };

/** The case's overview, where staff see who was told and record a phone acknowledgement. */
function caseHrefOf(caseRow: { id: string; stage: CaseStage }): string {
  return pages[`case-${caseRow.stage}-detail`].href({ caseId: caseRow.id, tab: "overview" });
}

/**
 * The message of one claimed delivery, rebuilt from its rows (links are never stored), or why it is not needed: a
 * notice only while the finding is open, a cancellation only once it is cancelled. Only the client's contacts get an
 * acknowledgement link; staff are informed (PRODUCT.md §10: acknowledging is the hospital's step).
 */
async function messageOf(ctx: FindingsContext, delivery: ClaimedDelivery): Promise<Message | { reason: string }> {
  const { db, settings } = ctx;
  const finding = await findFinding(db, delivery.findingId);
  const recipient = await findRecipient(db, delivery.recipientId);
  if (!finding || !recipient) return { reason: `${notSentPrefix} the finding or its recipient is gone.` };
  const caseRow = await requireCase(db, finding.caseId);
  const client = await requireClient(db, finding.clientId);
  if (delivery.purpose === "cancellation") {
    if (finding.status !== "cancelled" || !finding.cancelledAt) {
      return { reason: `${notSentPrefix} the finding is ${finding.status}, not cancelled.` };
    }
    const facts = {
      caseNumber: caseRow.caseNumber,
      clientName: client.name,
      timeZone: client.timezone,
      kind: finding.kind,
      raisedAt: finding.raisedAt,
      recipientKind: recipient.kind,
      cancelledAt: finding.cancelledAt,
    };
    const text = delivery.channel === "email" ? cancellationEmail(facts) : cancellationSms(facts);
    return { channel: delivery.channel, to: delivery.destination, ...text };
  }
  if (finding.status !== "open") return { reason: `${notSentPrefix} the finding was already ${finding.status}.` };
  const facts = {
    caseNumber: caseRow.caseNumber,
    clientName: client.name,
    timeZone: client.timezone,
    kind: finding.kind,
    onsetAt: finding.onsetAt,
    raisedAt: finding.raisedAt,
    dueAt: finding.dueAt,
    level: recipient.level,
    patient: {
      name: [caseRow.patientFirstName, caseRow.patientLastName].filter(Boolean).join(" ") || null,
      mrn: caseRow.patientMrn,
    },
    recipientKind: recipient.kind,
    token:
      recipient.kind === "contact"
        ? signLinkToken(ctx.linkSecret, { recipientId: recipient.id, expiresAt: recipient.linkExpiresAt })
        : null,
    linkExpiresAt: recipient.linkExpiresAt,
    caseHref: caseHrefOf(caseRow),
    teamPhone: settings.findings.teamPhone,
  };
  const options = { publicUrl: settings.publicUrl, includePatient: settings.findings.messagesIncludePatient };
  const text = delivery.channel === "email" ? findingEmail(facts, options) : findingSms(facts, options);
  return { channel: delivery.channel, to: delivery.destination, ...text };
}

function describeFailure(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, " ").trim().slice(0, 500) || "The transport failed without saying why.";
}

/**
 * A cancellation for one recipient whose notice may have reached them after the finding's cancellations were
 * written; none when they already have one on that channel and address.
 */
async function tellCancellationTo(tx: Db, findingId: string, notice: ClaimedDelivery, now: Date) {
  const existing = await tx
    .select({ id: findingDeliveries.id })
    .from(findingDeliveries)
    .where(
      and(
        eq(findingDeliveries.findingId, findingId),
        eq(findingDeliveries.recipientId, notice.recipientId),
        eq(findingDeliveries.purpose, "cancellation"),
        eq(findingDeliveries.channel, notice.channel),
        eq(findingDeliveries.destination, notice.destination),
      ),
    );
  if (existing.length > 0) return;
  await insertDeliveries(tx, [
    {
      recipientId: notice.recipientId,
      findingId,
      purpose: "cancellation",
      channel: notice.channel,
      destination: notice.destination,
      nextAttemptAt: now,
    },
  ]);
  await scheduleFindingMessages(tx, findingId);
}

/**
 * Records what became of one attempt: sent (the finding's first notification, when it is the first), a retry with
 * back-off, or failed for good; in a short transaction that locks the finding and then its case, as every finding
 * write does, and ends in the case change (the finding shows each message's state).
 */
async function settle(ctx: FindingsContext, delivery: ClaimedDelivery, outcome: Outcome, now: Date) {
  const maxAttempts = ctx.settings.findings.deliveryAttempts;
  const next =
    outcome.status === "sent"
      ? ({ status: "sent", at: now } as const)
      : outcome.status === "not-sent"
        ? ({ status: "not-needed", error: outcome.reason, at: now } as const)
        : outcome.status === "may-have-been-sent"
          ? ({ status: "may-have-been-sent", error: mayHaveBeenSentReason, at: now } as const)
          : (() => {
              const after = afterFailedAttempt(delivery.attempts, maxAttempts, now);
              return after.status === "failed"
                ? ({ status: "failed", error: outcome.error, at: now } as const)
                : ({ status: "pending", error: outcome.error, nextAttemptAt: after.nextAttemptAt } as const);
            })();
  await ctx.db.transaction(async (tx) => {
    const finding = await findFinding(tx, delivery.findingId, { lock: "update" });
    if (!finding) return;
    const caseRow = await requireCase(tx, finding.caseId, "update");
    if (!(await settleDelivery(tx, delivery, next))) return;
    if (next.status === "pending") {
      await scheduleFindingMessages(tx, finding.id, {
        runAt: next.nextAttemptAt,
        key: `${delivery.id}:${delivery.attempts}`,
      });
    }
    if (next.status === "sent" && delivery.purpose === "notice" && !finding.firstNotifiedAt) {
      await updateFinding(tx, finding.id, { firstNotifiedAt: now });
    }
    if (outcome.status === "may-have-been-sent" && delivery.purpose === "notice" && finding.status === "cancelled") {
      // It may have reached them after the cancellation's messages were written: they are told it was cancelled.
      await tellCancellationTo(tx, finding.id, delivery, now);
    }
    if (outcome.status !== "not-sent" && next.status !== "pending") {
      // A message that may have left is in the audit trail too: it may be a disclosure.
      await recordAudit(tx, {
        action:
          next.status === "sent"
            ? "critical-finding.message-sent"
            : next.status === "may-have-been-sent"
              ? "critical-finding.message-may-have-been-sent"
              : "critical-finding.message-failed",
        outcome: next.status === "sent" ? "success" : "failure",
        target: { type: "case", id: finding.caseId },
        details: {
          caseNumber: caseRow.caseNumber,
          findingId: finding.id,
          recipientId: delivery.recipientId,
          purpose: delivery.purpose,
          channel: delivery.channel,
          destination: maskDestination(delivery.channel, delivery.destination),
          attempts: delivery.attempts,
          ...(next.status === "failed" ? { error: next.error } : {}),
        },
      });
    }
    await recordCaseChange(tx, { caseId: finding.caseId, clientId: finding.clientId, change: "record" });
  });
  return next.status;
}

/**
 * Sends every message due at `now`: claims a batch (committed before anything is sent), sends each outside any
 * transaction through the message service (SMTP, the SMS webhook, or the outbox, which is the documented delivery
 * without a transport and so counts as sent), then settles each attempt. A message whose finding closed meanwhile is
 * not sent. Several instances may run this at once: each message is claimed by one.
 */
export async function sendDueDeliveries(ctx: FindingsContext, now: Date): Promise<DeliveryPass> {
  const pass: DeliveryPass = { sent: 0, retrying: 0, failed: 0 };
  for (let batch = 0; batch < batchesPerPass; batch += 1) {
    const claimed = await claimDueDeliveries(ctx.db, now, claimBatch);
    if (claimed.length === 0) break;
    for (const delivery of claimed) {
      const message = await messageOf(ctx, delivery);
      let outcome: Outcome;
      if ("reason" in message) {
        // Not needed now, but an earlier try may have sent it: it is never recorded as not sent then.
        outcome = delivery.mayHaveLeft
          ? { status: "may-have-been-sent" }
          : { status: "not-sent", reason: message.reason };
      } else {
        try {
          await ctx.messages.send(message);
          outcome = { status: "sent" };
        } catch (error) {
          outcome = { status: "error", error: describeFailure(error) };
        }
      }
      const settled = await settle(ctx, delivery, outcome, now);
      if (settled === "sent") pass.sent += 1;
      else if (settled === "pending") pass.retrying += 1;
      else if (outcome.status === "error") pass.failed += 1;
    }
  }
  return pass;
}

export type DeliveryHealth = {
  status: "ok" | "warning" | "failing";
  failedLastDay: number;
  waitingRetries: number;
  pending: number;
  oldestPendingMinutes: number | null;
};

/** A message waiting longer than this means the worker is not running, or every transport keeps failing. */
export const stuckPendingMinutes = 15;

/**
 * The delivery health the integration self-check reports: failing when a message failed for good in the last 24 h or
 * one has waited over 15 minutes (no worker running anywhere, or a transport down for all its retries); a warning
 * while messages wait for a retry or any wait over a minute; ok otherwise.
 */
export async function getFindingDeliveryHealth(ctx: Pick<FindingsContext, "db">, now: Date): Promise<DeliveryHealth> {
  const row = await findDeliveryHealth(ctx.db, now);
  const oldestPendingMinutes = row.oldestPendingAt
    ? Math.max(0, Math.round(((now.getTime() - row.oldestPendingAt.getTime()) / 60_000) * 10) / 10)
    : null;
  const failing = row.failedLastDay > 0 || (oldestPendingMinutes ?? 0) > stuckPendingMinutes;
  const warning = row.waitingRetries > 0 || (oldestPendingMinutes ?? 0) > 1;
  return {
    status: failing ? "failing" : warning ? "warning" : "ok",
    failedLastDay: row.failedLastDay,
    waitingRetries: row.waitingRetries,
    pending: row.pending,
    oldestPendingMinutes,
  };
}
