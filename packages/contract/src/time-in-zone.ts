/**
 * An instant as clinical staff read it, on screens and in the server's messages alike: in the client's own time
 * zone with the zone named ("Nov 22, 2026, 09:14 CST (America/Chicago)"), so a reading taken at 09:14 in Boston never
 * looks like 15:14 to a reviewer in Berlin. The zone's name is the one of that instant (CDT in July, CST in November),
 * not today's. An unknown zone says the time in UTC, and says so.
 */
export function formatInstantInZone(instant: Date | string, timeZone: string): string {
  const date = typeof instant === "string" ? new Date(instant) : instant;
  if (Number.isNaN(date.getTime())) return String(instant);
  const format = instantFormatIn(timeZone);
  if (!format) return formatInstantInZone(date, "UTC");
  return `${format.format(date)} (${timeZone})`;
}

const formatters = new Map<string, Intl.DateTimeFormat | null>();

/**
 * The formatter of `formatInstantInZone` without the zone's name after it ("Nov 22, 2026, 09:14 CST"), for texts
 * that name the zone once for several instants; null for a zone the runtime does not know. One per zone, made once:
 * building an Intl.DateTimeFormat costs far more than formatting with it, and a statement's CPT warnings format
 * thousands of instants.
 */
export function instantFormatIn(timeZone: string): Intl.DateTimeFormat | null {
  let format = formatters.get(timeZone);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat("en-US", {
        timeZone,
        year: "numeric",
        month: "short",
        day: "numeric",
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23",
        timeZoneName: "short",
      });
    } catch {
      format = null;
    }
    // Zones come from client records and the browser: a few dozen, but never let a stream of odd ones grow it.
    if (formatters.size < 1_000) formatters.set(timeZone, format);
  }
  return format;
}
