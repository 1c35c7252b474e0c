import type { InterfaceProfileRevision, InterfaceTestResult } from "@vigil/contract";
import { type Actor, auditedWrite } from "../../audit/audited-write.js";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import { formatHl7Timestamp, newControlId } from "../../hl7/hl7-ack.js";
import { escapeHl7 } from "../../hl7/hl7-text.js";
import { type MllpSendResult, sendMllpMessage } from "../../hl7/mllp-client.js";
import { requireClient } from "../clients/clients-service.js";
import { insertTestMessageRow } from "./profile-repository.js";
import { getCurrentInterfaceProfile } from "./profile-service.js";

export type TestMessageOptions = {
  /** MSH-4 of what Vigil sends (MSH-3 is always VIGIL). */
  sendingFacility?: string;
  connectTimeoutMs?: number;
  ackTimeoutMs?: number;
};

/** MSH-3 of every message Vigil sends. */
export const vigilApplication = "VIGIL";

/** MSH-9 of the test message; the log shows it as `NMQ^N01`. */
export const testMessageType = "NMQ^N01";

/**
 * The harmless message: an application management query (NMQ^N01, HL7 v2.5.1 chapter 14, network management) with
 * only a clock segment (NCK-1, the sender's time). It is the standard's own "are you there" message: it names no
 * patient and no order, so nothing can land in a chart whatever the receiving engine does with it. MSH-11 is P:
 * table 0103 has no "test" (T is training, D debugging), and an engine that takes results in production would turn
 * a D or T away for its processing id and the test would fail for a reason real results never meet.
 */
export function buildTestMessage(
  profile: Pick<InterfaceProfileRevision, "receivingApplication" | "receivingFacility" | "hl7Version">,
  sendingFacility: string,
  controlId: string,
  at: Date,
): string {
  const timestamp = formatHl7Timestamp(at);
  const msh = [
    "MSH",
    "^~\\&",
    vigilApplication,
    escapeHl7(sendingFacility),
    escapeHl7(profile.receivingApplication),
    escapeHl7(profile.receivingFacility),
    timestamp,
    "",
    "NMQ^N01^NMQ_N01",
    controlId,
    "P",
    profile.hl7Version,
  ].join("|");
  return `${msh}\rNCK|${timestamp}`;
}

function seconds(ms: number): string {
  const value = ms / 1000;
  return `${Number.isInteger(value) ? value : value.toFixed(1)} s`;
}

/** What happened, in the words the screen shows. */
export function summarizeTestResult(
  result: MllpSendResult,
  destination: { host: string; port: number },
  ackTimeoutMs: number,
): string {
  const where = `${destination.host}:${destination.port}`;
  if (result.ok) {
    const { code, text, errors } = result.ack;
    if (code === "AA" || code === "CA") {
      return `The hospital's system accepted the test message (${code}) in ${result.elapsedMs} ms.`;
    }
    const reasons = errors.map((error) => error.text || error.codeText).filter((reason) => reason !== "");
    const why = reasons.length > 0 ? reasons.join("; ") : text || "it gave no reason";
    return `The hospital's system refused it (${code}): ${why}`;
  }
  switch (result.reason) {
    case "refused":
      return `Nothing is listening at ${where}: the connection was refused.`;
    case "ack-timeout":
      return `No answer within ${seconds(ackTimeoutMs)}: ${where} took the connection but sent no acknowledgement.`;
    default:
      return result.message;
  }
}

/**
 * Sends the test message to the current profile's destination and logs it as an outbound message with its ACK;
 * audited whatever the outcome. A profile without a destination is a 409: there is nowhere to send it.
 */
export async function sendInterfaceTestMessage(
  db: Db,
  clientId: string,
  actor: Actor,
  options: TestMessageOptions = {},
): Promise<InterfaceTestResult> {
  await requireClient(db, clientId);
  const profile = await getCurrentInterfaceProfile(db, clientId);
  if (!profile) {
    throw new AppError("conflict", "This client has no interface profile yet; save one with a destination first.");
  }
  const destination = profile.destination;
  if (!destination) {
    throw new AppError(
      "conflict",
      "This profile has no destination: add the host and port the hospital's interface engine listens on.",
    );
  }
  const sendingFacility = options.sendingFacility ?? vigilApplication;
  const ackTimeoutMs = options.ackTimeoutMs ?? 10_000;
  const controlId = newControlId();
  const text = buildTestMessage(profile, sendingFacility, controlId, new Date());
  const result = await sendMllpMessage({
    host: destination.host,
    port: destination.port,
    tls: destination.tls ? { ca: destination.caCertificate ?? undefined } : undefined,
    message: text,
    connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
    ackTimeoutMs,
  });
  const summary = summarizeTestResult(result, destination, ackTimeoutMs);
  const ackCode = result.ok ? result.ack.code : null;
  const ok = ackCode === "AA" || ackCode === "CA";
  const ack = result.ok ? result.raw : (result.raw ?? null);
  const messageId = await db.transaction(async (tx) => {
    const id = await insertTestMessageRow(tx, {
      clientId,
      messageType: testMessageType,
      controlId,
      sendingApplication: vigilApplication,
      sendingFacility,
      text,
      status: ok ? "acknowledged" : "failed",
      ackCode,
      ack,
      error: ok ? null : summary,
      attempts: 1,
      processedAt: new Date(),
    });
    await recordAudit(
      tx,
      auditedWrite(
        actor,
        "interface-profile.test-message",
        { type: "client", id: clientId },
        {
          revision: profile.revision,
          destination: `${destination.host}:${destination.port}`,
          tls: destination.tls,
          controlId,
          ok,
          ackCode,
          failure: result.ok ? null : result.reason,
          durationMs: result.elapsedMs,
          messageId: id,
        },
      ),
    );
    return id;
  });
  return {
    ok,
    ackCode,
    summary,
    ack: ack === null ? null : ack.replace(/\r\n?/g, "\n").replace(/\n+$/, ""),
    durationMs: Math.max(0, Math.round(result.elapsedMs)),
    messageId,
  };
}
