/**
 * An instant as clinical staff read it, on screens and in the server's messages alike: in the client's own time
 * zone with the zone named ("Nov 22, 2026, 09:14 CST (America/Chicago)"), so a reading taken at 09:14 in Boston never
 * looks like 15:14 to a reviewer in Berlin. The zone's name is the one of that instant (CDT in July, CST in November),
 * not today's. An unknown zone says the time in UTC, and says so.
 */
export function formatInstantInZone(instant: Date | string, timeZone: string): string {
  const date = typeof instant === "string" ? new Date(instant) : instant;
  if (Number.isNaN(date.getTime())) return String(instant);
  try {
    const text = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "short",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZoneName: "short",
    }).format(date);
    return `${text} (${timeZone})`;
  } catch {
    return formatInstantInZone(date, "UTC");
  }
}
