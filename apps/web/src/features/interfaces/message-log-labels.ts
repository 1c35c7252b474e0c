import type { Hl7Direction, Hl7MessageStatus } from "@vigil/contract";

export const directionLabels: Record<Hl7Direction, string> = {
  inbound: "In (from the hospital)",
  outbound: "Out (to the hospital)",
};

/** The status in words, and the chip colour a glance needs: green done, amber waiting, red needing someone. */
export const statusLabels: Record<
  Hl7MessageStatus,
  { label: string; color: "success" | "warning" | "error" | "info" }
> = {
  processed: { label: "Processed", color: "success" },
  error: { label: "Error (AE)", color: "error" },
  rejected: { label: "Rejected (AR)", color: "error" },
  queued: { label: "Queued to send", color: "info" },
  sent: { label: "Sent, no ACK yet", color: "warning" },
  acknowledged: { label: "Acknowledged", color: "success" },
  failed: { label: "Failed", color: "error" },
};

/**
 * The log spans every client, so its times are shown and entered in the browser's own zone, always named; the URL
 * and the CSV keep ISO instants, so a shared link means the same moment everywhere.
 */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

/** "Nov 22, 2026, 09:14:05 EST": to the second, since messages often come seconds apart. */
export function formatLogTime(iso: string, timeZone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat("en-US", {
    timeZone,
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
    timeZoneName: "short",
  }).format(date);
}
