import type { Author, Case, MonitoringMode, TimeLogData } from "@vigil/contract";

export const activityLabels: Record<TimeLogData["activity"], string> = {
  setup: "Setup",
  monitoring: "Monitoring",
  review: "Review",
  takedown: "Takedown",
  other: "Other",
};

/**
 * The monitoring levels of the CPT long-term EEG codes (DOMAIN.md §2.3). The patient caps are configuration
 * (the time-log summary shows the configured ones), so they are not written into these labels.
 */
export const modeLabels: Record<MonitoringMode, string> = {
  unmonitored: "Unmonitored",
  intermittent: "Intermittent (review every 2 h)",
  continuous: "Continuous real-time",
};

export const modeShortLabels: Record<MonitoringMode, string> = {
  unmonitored: "Unmonitored",
  intermittent: "Intermittent",
  continuous: "Continuous",
};

/** A new log's likely mode: ambulatory studies are unmonitored, hospital ones watched in real time. */
export function defaultMode(caseItem: Pick<Case, "studyType">): MonitoringMode {
  return caseItem.studyType === "ambulatory" ? "unmonitored" : "continuous";
}

export function authorName(author: Author): string {
  return author.name || author.username;
}

/** "2 h 05 min", "45 min", "0 min". */
export function formatMinutes(total: number): string {
  const hours = Math.floor(total / 60);
  const minutes = total % 60;
  if (hours === 0) return `${minutes} min`;
  return `${hours} h ${String(minutes).padStart(2, "0")} min`;
}

/** A running clock: "0:04:09", "12:30:00". */
export function formatElapsed(milliseconds: number): string {
  const seconds = Math.max(0, Math.floor(milliseconds / 1000));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  return `${hours}:${String(minutes).padStart(2, "0")}:${String(rest).padStart(2, "0")}`;
}

/** The same in words, for screen readers and titles: "1 hour 4 minutes". */
export function elapsedInWords(milliseconds: number): string {
  const minutesTotal = Math.max(0, Math.floor(milliseconds / 60000));
  const hours = Math.floor(minutesTotal / 60);
  const minutes = minutesTotal % 60;
  const parts: string[] = [];
  if (hours > 0) parts.push(`${hours} hour${hours === 1 ? "" : "s"}`);
  parts.push(`${minutes} minute${minutes === 1 ? "" : "s"}`);
  return parts.join(" ");
}
