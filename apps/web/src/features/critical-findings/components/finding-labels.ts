import type { CriticalFindingStatus, FindingDelivery, FindingDeliveryStatus, FindingRecipient } from "@vigil/contract";

/** A finding's status in words; the colour goes with the words, never alone. */
export const findingStatusLabels: Record<CriticalFindingStatus, string> = {
  open: "Open: not acknowledged yet",
  acknowledged: "Acknowledged",
  cancelled: "Cancelled",
};

export const findingStatusColors: Record<CriticalFindingStatus, "error" | "success" | "default"> = {
  open: "error",
  acknowledged: "success",
  cancelled: "default",
};

export const recipientKindLabels: Record<FindingRecipient["kind"], string> = {
  contact: "Client contact",
  reviewer: "Reviewer",
  coordinator: "Coordinator",
};

export const channelLabels: Record<FindingDelivery["channel"], string> = {
  email: "Email",
  sms: "Text message",
};

export const deliveryStatusLabels: Record<FindingDeliveryStatus, string> = {
  pending: "Waiting to send",
  sending: "Sending",
  sent: "Sent",
  failed: "Failed",
  // Deliberately not sent (the finding was acknowledged or cancelled first): nothing went wrong.
  "not-needed": "Not needed",
  // An earlier try may have reached the recipient before its outcome was lost: never shown as not sent.
  "may-have-been-sent": "May have been sent",
};

export const deliveryPurposeLabels: Record<FindingDelivery["purpose"], string> = {
  notice: "Finding",
  cancellation: "Cancellation",
};

/** How a delivery is doing, in words: a pending one that already failed once is being retried. */
export function deliveryStatusText(delivery: Pick<FindingDelivery, "status" | "lastError">): string {
  if (delivery.status === "pending" && delivery.lastError) return "Retrying";
  return deliveryStatusLabels[delivery.status];
}

export function deliveryStatusColor(
  delivery: Pick<FindingDelivery, "status" | "lastError">,
): "default" | "success" | "warning" | "error" {
  if (delivery.status === "failed") return "error";
  if (delivery.status === "sent") return "success";
  if (delivery.status === "not-needed") return "default";
  if (delivery.status === "may-have-been-sent") return "warning";
  return delivery.lastError ? "warning" : "default";
}

/** When a recipient was told: at the raise, or at the n-th escalation. */
export function levelLabel(level: number): string {
  return level === 0 ? "When raised" : `Escalation ${level}`;
}

/** "12 min", "1 h 05 min": the time between two steps of the loop, whole minutes. */
export function durationText(fromIso: string, toIso: string): string {
  const minutes = Math.max(0, Math.round((Date.parse(toIso) - Date.parse(fromIso)) / 60_000));
  const hours = Math.floor(minutes / 60);
  return hours > 0 ? `${hours} h ${String(minutes % 60).padStart(2, "0")} min` : `${minutes} min`;
}
