import type { CriticalFinding, FindingDelivery, FindingRecipient } from "@vigil/contract";
import { maskDestination } from "../../messaging/message-service.js";
import { notSentPrefix } from "./finding-deliveries-repository.js";
import { withinWindowOf } from "./finding-schedule.js";
import type { DeliveryRow, FindingRow, RecipientRow } from "./findings-repository.js";

/** The contract's shapes of a finding and its recipients; destinations masked as everywhere else (spec §9). */

const iso = (value: Date | null) => value?.toISOString() ?? null;

/**
 * Rows written before `not-needed` existed kept such messages as `failed` with the not-sent reason: they were never a
 * delivery failure, and say so.
 */
function statusOf(row: DeliveryRow): FindingDelivery["status"] {
  return row.status === "failed" && row.lastError?.startsWith(notSentPrefix) ? "not-needed" : row.status;
}

function toDelivery(row: DeliveryRow): FindingDelivery {
  return {
    id: row.id,
    purpose: row.purpose,
    channel: row.channel,
    destination: maskDestination(row.channel, row.destination),
    status: statusOf(row),
    attempts: row.attempts,
    lastError: row.lastError,
    nextAttemptAt: row.status === "pending" ? row.nextAttemptAt.toISOString() : null,
    sentAt: iso(row.sentAt),
  };
}

function toRecipient(row: RecipientRow, deliveries: DeliveryRow[]): FindingRecipient {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    contactId: row.contactId,
    username: row.username,
    level: row.level,
    notifiedAt: row.notifiedAt.toISOString(),
    linkExpiresAt: row.linkExpiresAt.toISOString(),
    linkUsedAt: iso(row.linkUsedAt),
    deliveries: deliveries.filter((delivery) => delivery.recipientId === row.id).map(toDelivery),
  };
}

export function toCriticalFinding(
  row: FindingRow,
  caseNumber: string,
  recipients: RecipientRow[],
  deliveries: DeliveryRow[],
  now: Date,
): CriticalFinding {
  const acknowledged = row.status === "acknowledged" && row.acknowledgedAt;
  return {
    id: row.id,
    caseId: row.caseId,
    caseNumber,
    clientId: row.clientId,
    eventRecordId: row.eventRecordId,
    kind: row.kind,
    onsetAt: row.onsetAt.toISOString(),
    description: row.description,
    raisedAt: row.raisedAt.toISOString(),
    raisedBy: { sub: row.raisedBySub, username: row.raisedByUsername, name: row.raisedByName },
    windowMinutes: row.windowMinutes,
    dueAt: row.dueAt.toISOString(),
    status: row.status,
    firstNotifiedAt: iso(row.firstNotifiedAt),
    acknowledgement: acknowledged
      ? {
          at: row.acknowledgedAt?.toISOString() ?? "",
          name: row.acknowledgedName ?? "",
          via: row.acknowledgedVia ?? "phone",
          recipientId: row.acknowledgedRecipientId,
          readBackConfirmed: row.readBackConfirmed,
          note: row.acknowledgementNote,
          recordedBy: row.recordedByUsername
            ? { sub: row.recordedBySub, username: row.recordedByUsername, name: row.recordedByName }
            : null,
        }
      : null,
    cancellation:
      row.status === "cancelled" && row.cancelledAt
        ? {
            at: row.cancelledAt.toISOString(),
            reason: row.cancelReason ?? "",
            by: { sub: row.cancelledBySub, username: row.cancelledByUsername ?? "", name: row.cancelledByName },
          }
        : null,
    escalations: row.escalations,
    nextEscalationAt: row.status === "open" ? iso(row.nextEscalationAt) : null,
    withinWindow: withinWindowOf(row, now),
    recipients: recipients
      .filter((recipient) => recipient.findingId === row.id)
      .map((recipient) => toRecipient(recipient, deliveries)),
  };
}
