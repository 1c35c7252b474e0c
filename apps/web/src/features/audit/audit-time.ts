/**
 * The audit log belongs to no client, so its times are shown and entered in the browser's own zone, always named
 * (PRODUCT.md §9); the URL and the CSV keep ISO instants, so a shared link means the same moment everywhere.
 */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

/** "Nov 22, 2026, 09:14:05 EST": to the second, since audit events often come seconds apart. */
export function formatAuditTime(iso: string, timeZone: string): string {
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
