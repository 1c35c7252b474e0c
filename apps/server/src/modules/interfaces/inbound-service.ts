import { Hl7Message } from "@medplum/core";
import { hl7Conformance } from "@vigil/contract";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { isUniqueViolation } from "../../db/unique-violation.js";
import { AppError } from "../../errors/app-error.js";
import {
  type AckMode,
  type AckOutcome,
  ackWanted,
  buildAckText,
  type Hl7Error,
  immediateAckCode,
  readAckMode,
} from "../../hl7/hl7-ack.js";
import { type Hl7Header, headerComponent, readHeader, unescapeHl7 } from "../../hl7/hl7-text.js";
import type { MllpRefusal } from "../../hl7/mllp-listener.js";
import type { InterfaceActor } from "../cases/interface-cases-service.js";
import { adtEvents, applyAdtMessage } from "./adt-service.js";
import { InboundProblem, type InboundProfile, InboundReader, problemAt } from "./inbound-fields.js";
import {
  findInboundMessage,
  type Hl7MessageRow,
  insertInboundMessage,
  updateInboundMessage,
} from "./inbound-repository.js";
import { applyOrderMessage, type InboundContext, type InboundEffect } from "./order-service.js";
import { findProfileForIdentity } from "./profile-service.js";

/** Who sent a message: the TCP peer's address (kept on the message row, never patient data). */
export type InboundPeer = { address: string };

/** The message types and events this interface takes (docs/design/HL7.md, "Inbound"). */
const supportedEvents: Record<string, readonly string[]> = {
  ORM: ["O01"],
  OML: ["O21"],
  ADT: adtEvents,
};

/**
 * The HL7 versions (MSH-12.1) whose messages this interface reads: the segments and fields it takes (HL7.md's
 * conformance table) mean the same in each. Another version is refused (AR, 203) rather than read by guesswork.
 */
export const supportedInboundVersions: readonly string[] = hl7Conformance.versionsAccepted;

/** A second instance stored the same MSH-10 first: its answer is the answer. */
class DuplicateMessage extends Error {}

type Outcome = { outcome: AckOutcome; effect?: InboundEffect; problem?: InboundProblem };

/**
 * How a message is taken. `replayOf`: the logged message (its id) an administrator asked to process again; the
 * message goes through every rule as a new row naming that one, and the look-up of a repeated MSH-10 is skipped —
 * the repeat is the point — while the sender's original row keeps answering the sender's own retries.
 */
export type InboundOptions = { replayOf?: string };

/** What processing one message left: the ACK to answer with, and its row in the log (none when none was stored). */
export type InboundResult = { ack: string | null; messageId: string | null; ackCode: string | null };

/**
 * One inbound message → the ACK to answer it with (null when the sender asked for none: enhanced mode, MSH-15 NE
 * or ER on success). The message's row in the log and its effect on cases commit in one transaction before the
 * answer exists, so a commit acknowledgement is never sent for something not stored. A repeated MSH-10 from the
 * same sender (MSH-3, MSH-4) gets the stored answer again and changes nothing; two instances given the same message
 * at once are decided by the log's unique index, and the loser answers with the winner's ACK.
 */
export async function receiveHl7Message(db: Db, raw: string, peer: InboundPeer): Promise<string | null> {
  return (await takeHl7Message(db, raw, peer)).ack;
}

/**
 * A logged inbound message processed again (the message log's replay), with the same rules as the listener's: a
 * new row whose `replay_of` names the one replayed. Idempotent in effect, as a sender's resend under a new MSH-10
 * is: an order already made into a case is found by its placer number, demographics change only where they differ.
 * Runs in the caller's transaction, so the caller's audit row commits with it.
 */
export async function reprocessHl7Message(
  tx: Db,
  original: { id: string; text: string },
  peer: InboundPeer,
): Promise<InboundResult> {
  return takeHl7Message(tx, original.text, peer, { replayOf: original.id });
}

async function takeHl7Message(
  db: Db,
  raw: string,
  peer: InboundPeer,
  options: InboundOptions = {},
): Promise<InboundResult> {
  const unstored = (ack: string | null): InboundResult => ({ ack, messageId: null, ackCode: null });
  const text = raw
    .replace(/^[\s\0]+/, "")
    .replace(/[\r\n]+$/, "")
    .replace(/\r\n|\n/g, "\r");
  const header = readHeader(text);
  if (!header) {
    return unstored(
      buildAckText(undefined, {
        code: "AR",
        errors: [{ code: 100, text: "The message must begin with an MSH segment with readable delimiters." }],
      }),
    );
  }
  const mode = readAckMode(header);
  let message: Hl7Message;
  try {
    message = Hl7Message.parse(text);
  } catch {
    return unstored(answer(header, mode, "reject", [{ code: 102, text: "The message could not be parsed." }]).ack);
  }
  const reader = new InboundReader(message);
  const sender = {
    sendingApplication: reader.value({ segment: "MSH", field: 3 }),
    sendingFacility: reader.value({ segment: "MSH", field: 4 }),
    controlId: reader.value({ segment: "MSH", field: 10 }),
  };
  if (!sender.controlId) {
    const error = {
      code: 101,
      location: problemAt({ segment: "MSH", field: 10 }),
      text: "MSH-10 is required.",
    } as const;
    return unstored(answer(header, mode, "reject", [error]).ack);
  }
  if (!options.replayOf) {
    const stored = await findInboundMessage(db, sender);
    if (stored) return { ack: stored.ack, messageId: stored.id, ackCode: stored.ackCode };
  }

  const code = reader.value({ segment: "MSH", field: 9, component: 1 }).toUpperCase();
  const event = reader.value({ segment: "MSH", field: 9, component: 2 }).toUpperCase();
  const messageType = event ? `${code}^${event}` : code;
  const profile = await profileFor(db, sender);
  const actor: InterfaceActor = {
    sub: null,
    username: "hl7-interface",
    name: `Hospital interface (${sender.sendingApplication}/${sender.sendingFacility})`.slice(0, 200),
    ip: peer.address,
  };
  try {
    return await db.transaction(async (tx) => {
      const row = await insertInboundMessage(tx, {
        direction: "inbound",
        clientId: profile?.clientId ?? null,
        messageType,
        ...sender,
        patientMrn: reader.value({ segment: "PID", field: 3, component: 1 }).slice(0, 100) || null,
        orderNumber: reader.first({ segment: "ORC", field: 2 }, { segment: "OBR", field: 2 }).slice(0, 100) || null,
        text,
        status: "processed",
        peer: peer.address.slice(0, 100),
        // A replay's row is outside the unique index of senders' MSH-10s (which holds originals only).
        replayOf: options.replayOf ?? null,
      });
      if (!row) throw new DuplicateMessage();
      const result = await process(tx, {
        reader,
        profile,
        actor,
        code,
        event,
        messageType,
        controlId: sender.controlId,
      });
      const errors = result.problem ? [result.problem.toHl7Error()] : [];
      const answered = answer(header, mode, result.outcome, errors, result.effect?.text);
      const effect = result.effect;
      await updateInboundMessage(tx, row.id, {
        status: result.outcome === "accept" ? "processed" : result.outcome === "error" ? "error" : "rejected",
        ackCode: answered.code,
        ack: answered.ack,
        error: result.problem?.message ?? null,
        ...(effect
          ? { caseId: effect.caseId, patientMrn: effect.patientMrn ?? row.patientMrn, orderNumber: effect.orderNumber }
          : {}),
        processedAt: new Date(),
      });
      await recordAudit(tx, {
        action: "hl7.inbound",
        outcome: result.outcome === "accept" ? "success" : "failure",
        actor: { sub: null, username: actor.username },
        target: { type: "hl7-message", id: row.id },
        ip: peer.address,
        details: {
          messageType,
          controlId: sender.controlId.slice(0, 50),
          clientId: profile?.clientId ?? null,
          caseId: effect?.caseId ?? null,
          ackCode: answered.code,
          errorCode: result.problem?.code ?? null,
          replayOf: options.replayOf ?? null,
        },
      });
      if (effect?.caseId) {
        // As an API write of patient data is (http/patient-data-audit.ts): who, which case, by which route.
        await recordAudit(tx, {
          action: "patient-data.write",
          outcome: "success",
          actor: { sub: null, username: actor.username },
          target: { type: "case", id: effect.caseId },
          ip: peer.address,
          details: { channel: "hl7", messageId: row.id, messageType, ackCode: answered.code },
        });
      }
      return { ack: answered.ack, messageId: row.id, ackCode: answered.code };
    });
  } catch (error) {
    if (!(error instanceof DuplicateMessage)) throw error;
    const winner = (await findInboundMessage(db, sender)) as Hl7MessageRow;
    return { ack: winner.ack, messageId: winner.id, ackCode: winner.ackCode };
  }
}

type ProcessInput = {
  reader: InboundReader;
  profile: InboundProfile | undefined;
  actor: InterfaceActor;
  code: string;
  event: string;
  messageType: string;
  controlId: string;
};

/** MSH-12: required, and one of the versions this interface reads. */
function requireSupportedVersion(input: ProcessInput): void {
  const version = input.reader.value({ segment: "MSH", field: 12, component: 1 });
  const at = problemAt({ segment: "MSH", field: 12 });
  if (!version) throw new InboundProblem("reject", 101, "MSH-12 (version id) is required.", at);
  if (!supportedInboundVersions.includes(version)) {
    throw new InboundProblem(
      "reject",
      203,
      `HL7 version ${version.slice(0, 20)} (MSH-12) is not taken here; this interface reads versions ${supportedInboundVersions.join(", ")}.`,
      at,
    );
  }
}

/** The message's effect, inside a savepoint: a refusal rolls back every write of the effect and keeps the row. */
async function process(tx: Db, input: ProcessInput): Promise<Outcome> {
  try {
    const profile = requireProfile(input);
    requireSupportedVersion(input);
    const events = supportedEvents[input.code];
    if (!events) {
      throw new InboundProblem(
        "reject",
        200,
        `Message type ${input.code.slice(0, 10) || "(empty)"} is not taken here; this interface takes ORM^O01, OML^O21 and ADT^A01/A03/A04/A08.`,
        problemAt({ segment: "MSH", field: 9, component: 1 }),
      );
    }
    if (!events.includes(input.event)) {
      throw new InboundProblem(
        "reject",
        201,
        `Event ${input.code}^${input.event.slice(0, 10) || "(empty)"} is not taken here; ${input.code} is taken for ${events.join(", ")}.`,
        problemAt({ segment: "MSH", field: 9, component: 2 }),
      );
    }
    const effect = await tx.transaction(async (savepoint) => {
      const context: InboundContext = {
        tx: savepoint,
        reader: input.reader,
        profile,
        actor: input.actor,
        label: `${input.messageType} MSH-10 ${input.controlId.slice(0, 40)}`,
      };
      return input.code === "ADT" ? applyAdtMessage(context, input.event) : applyOrderMessage(context);
    });
    return { outcome: "accept", effect };
  } catch (error) {
    const problem = asProblem(error);
    if (!problem) throw error;
    return { outcome: problem.outcome, problem };
  }
}

function requireProfile(input: ProcessInput): InboundProfile {
  const { profile } = input;
  if (!profile) {
    // 204, "unknown key identifier": the sending identity is the key that finds the client, and none has it.
    throw new InboundProblem(
      "reject",
      204,
      "No client in Vigil has an interface profile for this sending application and facility (MSH-3, MSH-4).",
      problemAt({ segment: "MSH", field: 3 }),
    );
  }
  if (!profile.enabled) {
    // 207: the identity is known but its interface is switched off in Vigil; not the sender's error to fix.
    throw new InboundProblem(
      "reject",
      207,
      "The interface for this sending application and facility is switched off in Vigil.",
      problemAt({ segment: "MSH", field: 3 }),
    );
  }
  return profile;
}

function asProblem(error: unknown): InboundProblem | undefined {
  if (error instanceof InboundProblem) return error;
  // Two instances given two different messages carrying one new order at once: one case, the other refused.
  if (isUniqueViolation(error, "case_orders_client_placer_idx")) {
    return new InboundProblem(
      "error",
      205,
      "This placer order number was received at the same moment in another message.",
    );
  }
  if (error instanceof AppError && (error.code === "conflict" || error.code === "not_found")) {
    return new InboundProblem("error", 207, error.message);
  }
  return undefined;
}

async function profileFor(
  db: Db,
  sender: { sendingApplication: string; sendingFacility: string },
): Promise<InboundProfile | undefined> {
  if (!sender.sendingApplication && !sender.sendingFacility) return undefined;
  // The profile service keeps one identity to one client; were two to claim it, it names neither.
  return (await findProfileForIdentity(db, sender.sendingApplication, sender.sendingFacility))?.profile;
}

function answer(
  header: Hl7Header,
  mode: AckMode,
  outcome: AckOutcome,
  errors: Hl7Error[],
  text?: string,
): { code: string; ack: string | null } {
  const code = immediateAckCode(mode, outcome);
  const wanted = mode.kind === "original" || ackWanted(mode.accept, outcome);
  return { code, ack: wanted ? buildAckText(header, { code, errors, ...(text ? { text } : {}) }) : null };
}

/** The longest text of a refused frame the log keeps (an oversized one is cut to its head by the transport anyway). */
const refusedTextLimit = 64 * 1024;

/**
 * A frame the transport refused before processing (bad encoding, oversized, broken structure) is kept in the log as
 * rejected when its MSH names a sender and a control id, so the interface team can see it; otherwise only the
 * transport's log line tells of it. A repeat of a control id already kept adds nothing.
 */
export async function recordRefusedFrame(db: Db, refusal: MllpRefusal): Promise<void> {
  const { header } = refusal;
  if (!header) return;
  const read = (sequence: number, component = 1) =>
    unescapeHl7(headerComponent(header, sequence, component), header.delimiters)
      .trim()
      .slice(0, 200);
  const controlId = read(10);
  if (!controlId) return;
  const code = read(9);
  const event = read(9, 2);
  const ackCode = refusal.ack ? (/\rMSA.([A-Z]{2})/.exec(refusal.ack)?.[1] ?? null) : null;
  const sender = { sendingApplication: read(3), sendingFacility: read(4) };
  const profile = await profileFor(db, sender);
  await insertInboundMessage(db, {
    direction: "inbound",
    clientId: profile?.clientId ?? null,
    messageType: event ? `${code}^${event}` : code || "(unknown)",
    ...sender,
    controlId,
    text: refusal.raw.slice(0, refusedTextLimit),
    status: "rejected",
    ackCode,
    ack: refusal.ack ?? null,
    error: refusal.text.slice(0, 1000),
    peer: refusal.peer.address.slice(0, 100),
    processedAt: new Date(),
  });
}
