/**
 * An instant as refusals word it: in the client's own time zone with the zone named, as every screen shows times
 * ("Nov 22, 2026, 09:14 CST (America/Chicago)"), not a UTC ISO string a coordinator must convert in their head.
 * The zone's name is the one of that instant (CDT in July, CST in November), not today's.
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
    // An unknown zone (never stored: the contract checks it) still gives a time, named as UTC.
    return formatInstantInZone(date, "UTC");
  }
}
