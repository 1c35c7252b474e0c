import type { Hl7MessageDetail, Hl7MessageListQuery, Hl7MessageSummary } from "@vigil/contract";
import type { Actor } from "../../audit/audited-write.js";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import { displaySegments, displayText } from "./message-log-display.js";
import {
  findHl7Message,
  findHl7MessagePage,
  type Hl7MessageDetailRow,
  type Hl7MessageListRow,
} from "./message-log-repository.js";

type ListQuery = Omit<Hl7MessageListQuery, "limit" | "offset"> & { limit: number; offset: number };

export function toHl7MessageSummary(row: Hl7MessageListRow): Hl7MessageSummary {
  return {
    id: row.id,
    direction: row.direction,
    clientId: row.clientId,
    clientName: row.clientName,
    messageType: row.messageType,
    controlId: row.controlId,
    sendingApplication: row.sendingApplication,
    sendingFacility: row.sendingFacility,
    patientMrn: row.patientMrn,
    orderNumber: row.orderNumber,
    caseId: row.caseId,
    caseNumber: row.caseNumber,
    status: row.status,
    ackCode: row.ackCode,
    error: row.error,
    attempts: row.attempts,
    createdAt: row.createdAt.toISOString(),
    processedAt: row.processedAt?.toISOString() ?? null,
  };
}

export function toHl7MessageDetail(row: Hl7MessageDetailRow): Hl7MessageDetail {
  return {
    text: displayText(row.text),
    segments: displaySegments(row.text),
    ack: row.ack === null ? null : displayText(row.ack),
    reportVersionId: row.reportVersionId,
    replayOf: row.replayOf,
    ...toHl7MessageSummary(row),
  };
}

/** `GET /api/interfaces/hl7/messages`: one page, newest first (the route's patient-data audit records the call). */
export async function listHl7Messages(db: Db, query: ListQuery) {
  const { rows, total } = await findHl7MessagePage(
    db,
    {
      direction: query.direction,
      status: query.status,
      clientId: query.clientId,
      messageType: query.messageType,
      search: query.search,
      from: query.from ? new Date(query.from) : undefined,
      to: query.to ? new Date(query.to) : undefined,
    },
    { limit: query.limit, offset: query.offset },
  );
  return { items: rows.map(toHl7MessageSummary), total, limit: query.limit, offset: query.offset };
}

export async function requireHl7Message(db: Db, id: string): Promise<Hl7MessageDetailRow> {
  const row = await findHl7Message(db, id);
  if (!row) throw new AppError("not_found", `No logged HL7 message with id ${id}.`);
  return row;
}

/**
 * What an audit row says about a message: its id is the target, and the case, client and MRN are named so the row
 * is found among the case's and the client's events, and still says whose data it was after the log's retention
 * has deleted the message itself.
 */
export function auditDetailsOf(row: Hl7MessageDetailRow): Record<string, unknown> {
  return {
    direction: row.direction,
    messageType: row.messageType,
    controlId: row.controlId,
    ...(row.caseId ? { caseId: row.caseId } : {}),
    ...(row.clientId ? { clientId: row.clientId } : {}),
    ...(row.patientMrn ? { patientMrn: row.patientMrn } : {}),
  };
}

/**
 * `GET /api/interfaces/hl7/messages/{id}`: the message laid out for reading. Besides the route's own patient-data
 * row (who called, how it ended), a row naming the message's case, client and MRN: the route's row knows only the
 * message id, which the retention later deletes.
 */
export async function getHl7Message(db: Db, id: string, actor: Actor): Promise<Hl7MessageDetail> {
  const row = await requireHl7Message(db, id);
  await recordAudit(db, {
    action: "hl7-message.read",
    outcome: "success",
    actor: { sub: actor.sub, username: actor.username },
    target: { type: "hl7-message", id: row.id },
    ip: actor.ip,
    userAgent: actor.userAgent,
    details: auditDetailsOf(row),
  });
  return toHl7MessageDetail(row);
}
