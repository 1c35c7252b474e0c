/**
 * What the recorded details of a step are called on screen: one definition for every screen that shows what was
 * recorded with a step (the case's timeline; the audit viewer's summary can read it too), so no screen shows a stored
 * key ("became reviewer: false", "window minutes: 10"). Each known key has its words and, where the stored value is
 * not readable as it is, the way its value is written; a key without one is shown in sentence case.
 */

type DetailValue = string | number | boolean;

const yesNo = (value: DetailValue) => (value === true ? "yes" : value === false ? "no" : String(value));

/** "10 min", "2 h", "1 h 30 min": a promise's window, stored in whole minutes. */
export function formatWindowMinutes(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${String(rest).padStart(2, "0")} min`;
}

export const detailLabels: Record<string, { label: string; value?: (value: DetailValue) => string }> = {
  becameReviewer: { label: "Also became the case's reviewer", value: yesNo },
  windowMinutes: {
    label: "Acknowledgement window",
    value: (value) => (typeof value === "number" ? formatWindowMinutes(value) : String(value)),
  },
  finding: { label: "Finding" },
  description: { label: "Description" },
  notified: { label: "Told" },
  escalation: { label: "Escalation" },
  acknowledgedBy: { label: "Acknowledged by" },
  via: {
    label: "How",
    value: (value) => (value === "phone" ? "by phone" : value === "link" ? "by the secure link" : String(value)),
  },
  readBackConfirmed: { label: "Read back", value: yesNo },
  note: { label: "Note" },
  reason: { label: "Reason" },
  cause: { label: "Cause" },
  from: { label: "From" },
  to: { label: "To" },
  previous: { label: "Previous" },
  emailClockAlerts: { label: "E-mail clock alerts", value: yesNo },
};

/** "windowMinutes" → "Window minutes": a key no definition names yet, still read as words. */
function sentenceOf(key: string): string {
  const words = key.replace(/([A-Z])/g, " $1").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The details as "Label: value" parts, in their stored order: plain values only (ids, versions and nested objects
 * are shown by the screen in its own way, or not at all); `format` words a value a screen knows better (a priority).
 */
export function detailParts(
  details: Record<string, unknown>,
  format?: (key: string, value: DetailValue) => string | undefined,
): string[] {
  const parts: string[] = [];
  for (const [key, stored] of Object.entries(details)) {
    if (typeof stored !== "string" && typeof stored !== "number" && typeof stored !== "boolean") continue;
    if (key.endsWith("Id") || key === "version") continue;
    const value: DetailValue = stored;
    const known = detailLabels[key];
    const shown =
      format?.(key, value) ?? known?.value?.(value) ?? (typeof value === "boolean" ? yesNo(value) : String(value));
    parts.push(`${known?.label ?? sentenceOf(key)}: ${shown}`);
  }
  return parts;
}
