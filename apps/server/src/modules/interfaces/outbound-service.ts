import type { ReportEhrStatus } from "@vigil/contract";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { newControlId } from "../../hl7/hl7-ack.js";
import { type MllpSendResult, sendMllpMessage } from "../../hl7/mllp-client.js";
import { enqueueJob } from "../../jobs/job-queue.js";
import type { IssuedReportVersion, ReportOutbound } from "../reports/reports-service.js";
import { orderStatusMessageType } from "./order-status-message.js";
import { completeOrderOnSigning } from "./order-status-service.js";
import {
  findCaseOrder,
  findOutboundMessage,
  findResultMessagesOfVersions,
  insertOutboundResult,
  markOutboundSending,
  settleOutboundMessage,
} from "./outbound-repository.js";
import { getCurrentInterfaceProfile } from "./profile-service.js";
import { resultJobKind } from "./result-job-kind.js";

export { fhirPushJobKind, fhirPushMessageType } from "./result-job-kind.js";

import { buildResultMessage, vigilSendingApplication } from "./result-message.js";

export type OutboundSettings = {
  /** MSH-4 (HL7_SENDING_FACILITY). */
  sendingFacility: string;
  connectTimeoutMs: number;
  ackTimeoutMs: number;
};

export const defaultOutboundTimeouts = { connectTimeoutMs: 10_000, ackTimeoutMs: 30_000 } as const;

/**
 * In the signing (or addendum) transaction: when the client's interface profile is on and has a destination, the
 * version's result message is built once — text and MSH-10 fixed from here on, whatever retries follow — stored as
 * an outbound `queued` row of the message log, and its `hl7-result` job enqueued. A rolled-back signing leaves
 * neither; a committed one always has both.
 */
export async function queueResultMessage(
  settings: Pick<OutboundSettings, "sendingFacility">,
  tx: Db,
  issued: IssuedReportVersion,
): Promise<string | undefined> {
  const { row, inputs, pdf } = issued;
  const profile = await getCurrentInterfaceProfile(tx, row.clientId);
  if (!profile?.enabled || !profile.destination) return undefined;
  const order = await findCaseOrder(tx, row.caseId);
  const controlId = newControlId();
  const message = buildResultMessage({
    style: profile.resultStyle,
    controlId,
    at: new Date(),
    sendingFacility: settings.sendingFacility,
    profile,
    order: order ?? null,
    inputs,
    pdf,
  });
  const inserted = await insertOutboundResult(tx, {
    direction: "outbound",
    clientId: row.clientId,
    messageType: message.type,
    controlId,
    sendingApplication: vigilSendingApplication,
    sendingFacility: settings.sendingFacility,
    patientMrn: inputs.patient.mrn,
    orderNumber: order?.placerOrderNumber ?? null,
    caseId: row.caseId,
    reportVersionId: row.id,
    text: message.text,
    status: "queued",
    attempts: 0,
  });
  if (!inserted) return undefined;
  await enqueueJob(tx, resultJobKind, { messageId: inserted.id }, { uniqueKey: `hl7-result:${inserted.id}` });
  return inserted.id;
}

/** What the reports module is handed by `app.ts`: queue at signing, and each version's EHR status for its list. */
export function resultOutbound(settings: Pick<OutboundSettings, "sendingFacility">): ReportOutbound {
  return {
    onReportVersionIssued: async (tx, issued) => {
      await queueResultMessage(settings, tx, issued);
      await completeOrderOnSigning(settings, tx, {
        caseId: issued.row.caseId,
        clientId: issued.row.clientId,
        version: issued.inputs.report.version,
      });
    },
    ehrStatusesOf,
  };
}

/** Per report version, its result message's state in the words of the case screen. */
export async function ehrStatusesOf(db: Db, reportIds: readonly string[]): Promise<Map<string, ReportEhrStatus>> {
  const statuses = new Map<string, ReportEhrStatus>();
  for (const row of await findResultMessagesOfVersions(db, reportIds)) {
    if (!row.reportVersionId) continue;
    statuses.set(row.reportVersionId, {
      status: row.status === "acknowledged" ? "acknowledged" : row.status === "failed" ? "failed" : "waiting",
      ackCode: row.ackCode,
      at: row.processedAt?.toISOString() ?? null,
      error: row.error,
    });
  }
  return statuses;
}

export type ResultSendOutcome =
  | { kind: "acknowledged" | "already-acknowledged" | "gone" }
  | { kind: "refused"; error: string }
  | { kind: "not-delivered"; error: string; final: boolean };

/** What an outbound message is, in the sentences about it. */
function whatIsSent(messageType: string): string {
  return messageType === orderStatusMessageType ? "order status" : "result";
}

/** The peer's own words for a refusal: its ERR texts, else MSA-3. */
function refusalOf(result: Extract<MllpSendResult, { ok: true }>, messageType: string): string {
  const { code, text, errors } = result.ack;
  const reasons = errors.map((error) => error.text || error.codeText).filter((reason) => reason !== "");
  const why = reasons.length > 0 ? reasons.join("; ") : text || "it gave no reason";
  return `The hospital's system refused the ${whatIsSent(messageType)} (${code}): ${why}`;
}

/**
 * One try of a result message: the stored text (same MSH-10 every time) to the profile's current destination.
 * AA/CA: acknowledged, with the ACK. AE/AR (CE/CR): failed with the peer's words — sending the same message again
 * cannot change the answer. No answer (refused, timed out, closed, not an ACK): kept `queued` with the reason, to
 * be tried again; the last try marks it failed. An acknowledged message is never sent again.
 */
export async function sendResultMessage(
  db: Db,
  settings: OutboundSettings,
  messageId: string,
  options: { final: boolean },
): Promise<ResultSendOutcome> {
  const message = await findOutboundMessage(db, messageId);
  if (!message || !message.clientId) return { kind: "gone" };
  if (message.status === "acknowledged") return { kind: "already-acknowledged" };
  const profile = await getCurrentInterfaceProfile(db, message.clientId);
  const destination = profile?.enabled ? profile.destination : null;
  if (!destination) {
    const error = `The client's interface profile is off or has no destination now; the ${whatIsSent(message.messageType)} was not sent.`;
    await settleOutboundMessage(db, messageId, {
      status: options.final ? "failed" : "queued",
      ackCode: null,
      ack: null,
      error,
      processedAt: options.final ? new Date() : null,
    });
    return { kind: "not-delivered", error, final: options.final };
  }
  await markOutboundSending(db, messageId);
  const result = await sendMllpMessage({
    host: destination.host,
    port: destination.port,
    tls: destination.tls ? { ca: destination.caCertificate ?? undefined } : undefined,
    message: message.text,
    connectTimeoutMs: settings.connectTimeoutMs,
    ackTimeoutMs: settings.ackTimeoutMs,
  });
  const now = new Date();
  let outcome: ResultSendOutcome;
  if (result.ok && (result.ack.code === "AA" || result.ack.code === "CA")) {
    outcome = { kind: "acknowledged" };
    await settleOutboundMessage(db, messageId, {
      status: "acknowledged",
      ackCode: result.ack.code,
      ack: result.raw,
      error: null,
      processedAt: now,
    });
  } else if (result.ok) {
    outcome = { kind: "refused", error: refusalOf(result, message.messageType) };
    await settleOutboundMessage(db, messageId, {
      status: "failed",
      ackCode: result.ack.code,
      ack: result.raw,
      error: outcome.error,
      processedAt: now,
    });
  } else {
    outcome = { kind: "not-delivered", error: result.message, final: options.final };
    await settleOutboundMessage(db, messageId, {
      status: options.final ? "failed" : "queued",
      ackCode: null,
      ack: result.raw ?? null,
      error: result.message,
      processedAt: options.final ? now : null,
    });
  }
  if (outcome.kind !== "not-delivered" || options.final) {
    await recordAudit(db, {
      action: "hl7.outbound",
      outcome: outcome.kind === "acknowledged" ? "success" : "failure",
      actor: { sub: null, username: "hl7-interface" },
      target: { type: "case", id: message.caseId ?? message.clientId },
      details: {
        messageId,
        messageType: message.messageType,
        controlId: message.controlId,
        reportId: message.reportVersionId,
        destination: `${destination.host}:${destination.port}`,
        ackCode: result.ok ? result.ack.code : null,
        failure: result.ok ? null : result.reason,
      },
    });
  }
  return outcome;
}
