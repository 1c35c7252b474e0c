import type { Hl7MessageDetail } from "@vigil/contract";
import type { Actor } from "../../audit/audited-write.js";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import { enqueueJob, retryFailedJob } from "../../jobs/job-queue.js";
import { reprocessHl7Message } from "./inbound-service.js";
import {
  findHl7Message,
  findResultJobOf,
  type Hl7MessageDetailRow,
  lockHl7Message,
  markQueuedAgain,
} from "./message-log-repository.js";
import { auditDetailsOf, requireHl7Message, toHl7MessageDetail } from "./message-log-service.js";
import { sendingJobKindOf } from "./result-job-kind.js";

/**
 * Re-processes an inbound message through the inbound service's replay option (`reprocessHl7Message`): the same
 * rules as the listener's, a new row of the log naming the one replayed (`replay_of`), while the sender's original
 * row keeps its MSH-10 and keeps answering the sender's own retries. The replayed row is locked first, so two
 * replays of one message run one after the other and the second finds what the first did.
 *
 * Idempotent in effect: what the message does is the inbound service's, which finds an order already made into a
 * case by its placer order number (no second case), and applies demographics as revisions only when they differ.
 */
async function replayInbound(db: Db, row: Hl7MessageDetailRow, actor: Actor): Promise<string> {
  return db.transaction(async (tx) => {
    await lockHl7Message(tx, row.id);
    const replay = await reprocessHl7Message(tx, row, { address: actor.ip ?? "replay" });
    if (!replay.messageId) {
      // The service stores nothing it cannot read a sender and an MSH-10 from; the original was answered unstored.
      throw new AppError(
        "conflict",
        "This message cannot be processed again: it has no readable MSH segment or MSH-10, so there is nothing to replay.",
      );
    }
    const stored = await findHl7Message(tx, replay.messageId);
    await recordAudit(tx, {
      action: "hl7-message.replay",
      outcome: "success",
      actor: { sub: actor.sub, username: actor.username },
      target: { type: "hl7-message", id: row.id },
      ip: actor.ip,
      userAgent: actor.userAgent,
      details: {
        replayId: replay.messageId,
        ackCode: replay.ackCode,
        // biome-ignore lint/plugin/leading-spread-then-keys: the row's caseId, as the replay left it
        ...auditDetailsOf({ ...row, caseId: stored?.caseId ?? row.caseId }),
      },
    });
    return replay.messageId;
  });
}

const acknowledgedWords = (row: Hl7MessageDetailRow) =>
  `The hospital acknowledged this result${row.ackCode ? ` (${row.ackCode})` : ""}` +
  `${row.processedAt ? ` on ${row.processedAt.toISOString()}` : ""}; a report version's result is sent once, not again.`;

/**
 * Sends an outbound result or order-status message again: its own row and its own `hl7-result` job (the one whose job failed for
 * good, set waiting again, due now), so the same text with the same MSH-10 goes out and the hospital can recognise
 * it; the case screen's "EHR acknowledged" reads that row. An acknowledged result is never sent again, and one
 * already waiting or on its way is not sent twice: both are refused with why.
 */
async function replayOutbound(db: Db, row: Hl7MessageDetailRow, actor: Actor): Promise<string> {
  // Results and order statuses have a case and their own job; a test message has neither and is sent anew.
  if (!row.reportVersionId && !row.caseId) {
    throw new AppError(
      "conflict",
      "Only results and order statuses are sent again from the log; a test message is sent anew from the client's Interfaces tab.",
    );
  }
  if (row.status === "acknowledged") throw new AppError("conflict", acknowledgedWords(row));
  return db.transaction(async (tx) => {
    const kind = sendingJobKindOf(row.messageType);
    const job = await findResultJobOf(tx, row.id, kind.kind);
    if (job && job.state !== "failed") {
      throw new AppError(
        "conflict",
        job.state === "done"
          ? "This result's sending is over; it is not sent again."
          : `This result is already waiting to be sent (${job.attempts} ${job.attempts === 1 ? "try" : "tries"} so far); it is not sent twice.`,
      );
    }
    const jobId = job
      ? (await retryFailedJob(tx, job.id))?.id
      : await enqueueJob(tx, kind, { messageId: row.id }, { uniqueKey: `${kind.kind}:${row.id}` });
    if (!jobId) throw new AppError("conflict", "This result's job changed meanwhile; read the message again.");
    await markQueuedAgain(tx, row.id);
    await recordAudit(tx, {
      action: "hl7-message.replay",
      outcome: "success",
      actor: { sub: actor.sub, username: actor.username },
      target: { type: "hl7-message", id: row.id },
      ip: actor.ip,
      userAgent: actor.userAgent,
      details: { jobId, previousStatus: row.status, ...auditDetailsOf(row) },
    });
    return row.id;
  });
}

/**
 * `POST /api/interfaces/hl7/messages/{id}/replay`: an inbound message is processed again (a new row); an outbound
 * result is sent again (its own row, queued). Audited; the answer is the row that tells the outcome.
 */
export async function replayHl7Message(db: Db, id: string, actor: Actor): Promise<Hl7MessageDetail> {
  const row = await requireHl7Message(db, id);
  const shownId =
    row.direction === "outbound" ? await replayOutbound(db, row, actor) : await replayInbound(db, row, actor);
  const shown = await findHl7Message(db, shownId);
  if (!shown) throw new AppError("not_found", `No logged HL7 message with id ${shownId}.`);
  return toHl7MessageDetail(shown);
}
