/**
 * `<input type="datetime-local">` speaks wall-clock time without a zone; clinical times are entered in the
 * client's zone (PRODUCT.md §9), whatever zone the browser is in. These convert between an instant and the wall
 * time a given IANA zone shows for it.
 */

function zoneOffsetMs(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** An ISO instant → `YYYY-MM-DDTHH:mm` as the zone's clocks show it ("" for no value). */
export function isoToZonedInput(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return "";
  const instant = Date.parse(iso);
  if (Number.isNaN(instant)) return "";
  const shifted = new Date(instant + zoneOffsetMs(instant, timeZone));
  return shifted.toISOString().slice(0, 16);
}

/** How a typed wall time reads in a zone: the instant, and what the clocks did that day if it matters. */
export type ZonedReading = {
  iso: string;
  /** The zone's short name at that instant ("EDT" on 8 March 06:07 in New York, "EST" the day before). */
  abbreviation: string;
  /** The typed time does not exist (the clocks jumped over it): the wall time it is saved as instead. */
  shiftedTo?: string;
  /** The typed time happens twice (the clocks went back): the first of the two is meant. */
  repeated?: boolean;
};

const dayMs = 86_400_000;

/**
 * `YYYY-MM-DDTHH:mm` read in the zone; undefined when the text is not a wall time. A time inside a spring-forward
 * gap does not exist: it is read with the offset in force before the jump, which lands as far after the jump as it
 * was typed after its start (02:30 in New York on 8 March 2026 is 03:30 EDT), and `shiftedTo` says so. A time the
 * clocks show twice (the fall-back hour) is the first of the two. Both are how calendars and Temporal resolve them.
 */
export function readZonedInput(text: string, timeZone: string): ZonedReading | undefined {
  const typed = text.trim();
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(typed);
  if (!match) return undefined;
  const [, year, month, day, hour, minute] = match.map(Number) as [number, number, number, number, number, number];
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  // 2026-02-30T10:00 is no wall time (Date.UTC would roll it over to March).
  if (Number.isNaN(wall) || isoToZonedInput(new Date(wall).toISOString(), "UTC") !== typed) return undefined;
  // A zone changes its offset at most once within a day either side: the offsets before and after bound the answer.
  const before = wall - zoneOffsetMs(wall - dayMs, timeZone);
  const after = wall - zoneOffsetMs(wall + dayMs, timeZone);
  const fits = [before, after].filter(
    (instant) => isoToZonedInput(new Date(instant).toISOString(), timeZone) === typed,
  );
  const instant = fits.length > 0 ? Math.min(...fits) : before;
  const iso = new Date(instant).toISOString();
  const reading: ZonedReading = { iso, abbreviation: zoneAbbreviation(timeZone, new Date(instant)) };
  if (fits.length === 0) reading.shiftedTo = isoToZonedInput(iso, timeZone);
  if (fits.length === 2 && before !== after) reading.repeated = true;
  return reading;
}

/** `YYYY-MM-DDTHH:mm` read in the zone → the ISO instant (see `readZonedInput`); undefined when not a wall time. */
export function zonedInputToIso(text: string, timeZone: string): string | undefined {
  return readZonedInput(text, timeZone)?.iso;
}

/**
 * The hint under a time typed in a zone, about the time typed: the zone with its name on that date (not today's),
 * and a plain warning when the clocks skip or repeat that time, since the saved instant is not what a reader of the
 * bare digits would assume. `where` names whose zone it is; `note` adds what an empty field means.
 */
export function zonedTimeHint(
  text: string,
  timeZone: string,
  { where = "In the client's time zone", note }: { where?: string; note?: string } = {},
): string {
  const reading = readZonedInput(text, timeZone);
  const tail = note ? `; ${note}` : "";
  if (!reading) return `${where}, ${timeZone} (${zoneAbbreviation(timeZone)})${tail}`;
  const typed = text.trim();
  if (reading.shiftedTo) {
    return `${typed.slice(11)} does not exist on ${dayWords(typed)} in ${timeZone}: the clocks jump forward, so it is saved as ${reading.shiftedTo.slice(11)} ${reading.abbreviation}${tail}`;
  }
  if (reading.repeated) {
    return `${typed.slice(11)} happens twice on ${dayWords(typed)} in ${timeZone} (the clocks go back): saved as the first, ${reading.abbreviation}${tail}`;
  }
  return `${where}, ${timeZone} (${reading.abbreviation})${tail}`;
}

function dayWords(text: string): string {
  return new Intl.DateTimeFormat("en-US", { timeZone: "UTC", month: "short", day: "numeric", year: "numeric" }).format(
    new Date(`${text.slice(0, 10)}T12:00:00Z`),
  );
}

/** The zone's short name at an instant ("EST"), for labels next to inputs. */
export function zoneAbbreviation(timeZone: string, at = new Date()): string {
  try {
    const parts = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "short" }).formatToParts(at);
    return parts.find((part) => part.type === "timeZoneName")?.value ?? timeZone;
  } catch {
    return timeZone;
  }
}
