/**
 * Times as clinical staff need them: in the client's own time zone, with the zone named, so a reading taken at
 * 09:14 in Boston never looks like 15:14 to a reviewer in Berlin ("Nov 22, 2026, 09:14 EST (America/New_York)").
 */
export function formatDateTimeInZone(iso: string, timeZone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
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
    // An unknown zone: say the time in UTC rather than in the browser's zone, and say so.
    return formatDateTimeInZone(iso, "UTC");
  }
}

export function ZonedDateTime({ value, timeZone }: { value: string; timeZone: string }) {
  return <time dateTime={value}>{formatDateTimeInZone(value, timeZone)}</time>;
}
