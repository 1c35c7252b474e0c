import type { Hl7MessageDetail } from "@vigil/contract";
import type { Actor } from "../../audit/audited-write.js";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import { receiveHl7Message } from "./inbound-service.js";
import {
  findHl7Message,
  findInboundHolderForUpdate,
  type Hl7MessageDetailRow,
  setReplayOf,
} from "./message-log-repository.js";
import { auditDetailsOf, requireHl7Message, toHl7MessageDetail } from "./message-log-service.js";

/**
 * Re-processes an inbound message exactly as the listener would, as a new row of the log naming the one replayed
 * (`replay_of`). The inbound service answers a repeated MSH-10 with its stored ACK and changes nothing — right for a
 * sender's retry, wrong for a replay. So inside the replay's one transaction the row holding the sender's MSH-10
 * steps aside (its `replay_of` pointing at itself takes it out of the service's look-up and of the unique index),
 * the service processes the stored text, the new row is marked as the replay, and the holder steps back. Nobody
 * outside the transaction sees the swap; two replays of one message queue on the holder's row lock.
 *
 * Idempotent in effect: what the message does is the inbound service's, which finds an order already made into a
 * case by its placer order number (no second case), and applies demographics as revisions only when they differ.
 */
async function replayInbound(db: Db, row: Hl7MessageDetailRow, actor: Actor): Promise<string> {
  return db.transaction(async (tx) => {
    const sender = {
      sendingApplication: row.sendingApplication,
      sendingFacility: row.sendingFacility,
      controlId: row.controlId,
    };
    const holder = await findInboundHolderForUpdate(tx, sender);
    if (holder) await setReplayOf(tx, holder.id, holder.id);
    await receiveHl7Message(tx, row.text, { address: actor.ip ?? "replay" });
    const replay = await findInboundHolderForUpdate(tx, sender);
    if (!replay) {
      // The service stores nothing it cannot read a sender and an MSH-10 from; the original was answered unstored.
      throw new AppError(
        "conflict",
        "This message cannot be processed again: it has no readable MSH segment or MSH-10, so there is nothing to replay.",
      );
    }
    await setReplayOf(tx, replay.id, row.id);
    if (holder) await setReplayOf(tx, holder.id, null);
    await recordAudit(tx, {
      action: "hl7-message.replay",
      outcome: "success",
      actor: { sub: actor.sub, username: actor.username },
      target: { type: "hl7-message", id: row.id },
      ip: actor.ip,
      userAgent: actor.userAgent,
      details: {
        ...auditDetailsOf({ ...row, caseId: replay.caseId ?? row.caseId }),
        replayId: replay.id,
        ackCode: replay.ackCode,
      },
    });
    return replay.id;
  });
}

/**
 * `POST /api/interfaces/hl7/messages/{id}/replay`: an inbound message is processed again (a new row, audited);
 * the answer is the new row.
 */
export async function replayHl7Message(db: Db, id: string, actor: Actor): Promise<Hl7MessageDetail> {
  const row = await requireHl7Message(db, id);
  if (row.direction === "outbound") {
    throw new AppError(
      "conflict",
      "Re-sending an outbound message from the log is not available yet: a failed result is sent again by " +
        "retrying its job on the integration page, which keeps its control id (MSH-10).",
    );
  }
  const replayId = await replayInbound(db, row, actor);
  const replay = await findHl7Message(db, replayId);
  if (!replay) throw new AppError("not_found", `No logged HL7 message with id ${replayId}.`);
  return toHl7MessageDetail(replay);
}
