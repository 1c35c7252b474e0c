import { formatInstantInZone } from "@vigil/contract";

/* The warnings of a CPT suggestion that are not about codes: too short a recording, gaps between review checks, caps. */

const hour = 3600;
/** Intermittent monitoring documents a real-time review at least every 2 h (DOMAIN.md §2.3 [V]). */
const reviewCheckIntervalMs = 2 * hour * 1000;

type Interval = { start: number; end: number };

/** What the review-check rule reads of a time log (a `CptLog` fits). */
type ReviewedLog = { start: Date; end: Date | null; billable: boolean; activity: string; mode: string };

export const capExceededMessage =
  "While this case was monitored, a technologist had more concurrent patients than the cap for the level of monitoring allows (DOMAIN.md §2.3: intermittent and continuous monitoring have a per-technologist patient cap); the monitored codes may not be supported for that time.";

/** "1 h 59 min 59 s": the exact length, because the rounded hours of 1:59:59 show as 2.00. */
export function formatDuration(seconds: number): string {
  const hours = Math.floor(seconds / hour);
  const minutes = Math.floor((seconds % hour) / 60);
  return `${hours} h ${minutes} min ${seconds % 60} s`;
}

export function underTwoHoursMessage(recordingSeconds: number): string {
  const recorded =
    recordingSeconds === 0
      ? "The case has no billable monitoring time"
      : `The billable recording lasted ${formatDuration(recordingSeconds)}, under 2 hours`;
  return `${recorded}: long-term EEG codes (95700–95726) do not apply. Report a routine or extended EEG code instead (95812 for 41–60 minutes, 95813 for over 1 hour; 95816/95819/95822 for routine EEG), DOMAIN.md §2.3.`;
}

export type ReviewCheckGap = { from: Date; to: Date; fromCheck: boolean; toCheck: boolean; running: boolean };

/**
 * Intermittent monitoring needs a documented real-time review at least every 2 h for the whole recording
 * (DOMAIN.md §2.3 [V]). Measured over each stretch of billable intermittent monitoring — contiguous or
 * overlapping logs are one stretch, so a gap cannot hide behind a log that ends where the next one begins — from
 * its start or the last check to each check and to its end (now while running). Exactly 2 h is compliant.
 */
export function reviewCheckGaps(
  logs: readonly ReviewedLog[],
  reviewChecks: readonly Date[],
  now: Date,
): ReviewCheckGap[] {
  const stretches = union(
    logs
      .filter((log) => log.billable && log.activity === "monitoring" && log.mode === "intermittent")
      .map((log) => ({ start: log.start.getTime(), end: (log.end ?? now).getTime(), running: log.end === null }))
      .filter((log) => log.end > log.start),
  );
  const checks = reviewChecks.map((check) => check.getTime()).sort((a, b) => a - b);
  const gaps: ReviewCheckGap[] = [];
  for (const stretch of stretches) {
    let last = stretch.start;
    let lastIsCheck = false;
    const note = (to: number, toCheck: boolean) => {
      if (to - last > reviewCheckIntervalMs)
        gaps.push({
          from: new Date(last),
          to: new Date(to),
          fromCheck: lastIsCheck,
          toCheck,
          running: !toCheck && stretch.running,
        });
    };
    for (const check of checks) {
      if (check < stretch.start || check > stretch.end) continue;
      note(check, true);
      last = check;
      lastIsCheck = true;
    }
    note(stretch.end, false);
  }
  return gaps;
}

/** Merges overlapping and touching intervals; a stretch with a running log in it is running. */
function union(intervals: readonly (Interval & { running: boolean })[]): (Interval & { running: boolean })[] {
  const merged: (Interval & { running: boolean })[] = [];
  for (const interval of [...intervals].sort((a, b) => a.start - b.start)) {
    const previous = merged.at(-1);
    if (previous && interval.start <= previous.end) {
      previous.end = Math.max(previous.end, interval.end);
      previous.running ||= interval.running;
    } else merged.push({ ...interval });
  }
  return merged;
}

const shownGaps = 3;

export function reviewGapMessage(gaps: readonly ReviewCheckGap[], timeZone: string): string {
  const describe = (gap: ReviewCheckGap) => {
    const seconds = Math.floor((gap.to.getTime() - gap.from.getTime()) / 1000);
    const from = gap.fromCheck ? "a review check" : "the start of intermittent monitoring";
    const to = gap.toCheck ? "the next check" : gap.running ? "now (still running)" : "its end";
    const at = (instant: Date) => formatInstantInZone(instant, timeZone);
    return `${at(gap.from)} → ${at(gap.to)} (${formatDuration(seconds)}, from ${from} to ${to})`;
  };
  const listed = gaps.slice(0, shownGaps).map(describe).join("; ");
  const more = gaps.length > shownGaps ? `; and ${gaps.length - shownGaps} more` : "";
  const count = gaps.length === 1 ? "once" : `${gaps.length} times`;
  return `Intermittent monitoring went more than 2 hours without a documented review check ${count}: ${listed}${more}. Intermittent codes need a real-time review at least every 2 hours (DOMAIN.md §2.3).`;
}
