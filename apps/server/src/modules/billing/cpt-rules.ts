import {
  type CptSuggestion,
  type CptSuggestionLine,
  type CptWarning,
  type CptWarningId,
  cptWarningIds,
} from "@vigil/contract";
import { hoursFromSeconds } from "./billing-money.js";
import { capExceededMessage, reviewCheckGaps, reviewGapMessage, underTwoHoursMessage } from "./cpt-warnings.js";

/**
 * CPT suggestions for one case from its time logs (DOMAIN.md §2, the long-term EEG codes of 2020), free of the
 * database. The suggestion is advice for the billing note, never a claim: every line says what it is based on,
 * and every doubt is a warning the billing note must acknowledge before the case closes.
 *
 * All durations are whole seconds: each instant is truncated to its second before anything is measured (logs
 * carry at most milliseconds). Truncating instants rather than durations keeps the union of logs additive, so
 * segment lengths add up to the recording time exactly and the 2/12/26/36/60/84-hour edges are decided on the
 * same seconds the recording hours are shown from.
 */

type Mode = "unmonitored" | "intermittent" | "continuous";

export type CptLog = {
  start: Date;
  end: Date | null;
  activity: "setup" | "monitoring" | "review" | "takedown" | "other";
  mode: Mode;
  video: boolean;
  billable: boolean;
  channels: number | null;
};

export type CptRulesConfig = {
  /** [R] in DOMAIN.md: a final segment of 2–12 h after 12–26 h increments is reported with the 2–12 h code (off: not reported). */
  finalPartialSegmentUsesShortCode: boolean;
  /** [R]: studies over 36 h get one complete-study summary (95721–95726) instead of daily 95719/95720 reports; the two are never combined. */
  professionalReporting: "summary-over-36h" | "daily";
  /** [V]: video codes only when video covers at least this share of recording time. */
  videoThresholdPercent: number;
};

/** DOMAIN.md §2.3: the [R] rules as recalled, and the [V] 80 % video threshold. */
export const defaultCptRulesConfig: CptRulesConfig = {
  finalPartialSegmentUsesShortCode: true,
  professionalReporting: "summary-over-36h",
  videoThresholdPercent: 80,
};

/** Short descriptors (DOMAIN.md §2.1–2.2), for the suggestion lines; the AMA's full wording is longer. */
export const cptCodeDescriptions: Record<string, string> = {
  "95700": "Long-term EEG setup, patient education and takedown by an EEG technologist, at least 8 channels, per study",
  "95705": "EEG without video, technologist review and technical description, 2–12 h, unmonitored",
  "95706": "EEG without video, technologist review and technical description, 2–12 h, intermittent monitoring",
  "95707": "EEG without video, technologist review and technical description, 2–12 h, continuous real-time monitoring",
  "95708": "EEG without video, technologist review and technical description, each 12–26 h increment, unmonitored",
  "95709":
    "EEG without video, technologist review and technical description, each 12–26 h increment, intermittent monitoring",
  "95710":
    "EEG without video, technologist review and technical description, each 12–26 h increment, continuous real-time monitoring",
  "95711": "Video EEG, technologist review and technical description, 2–12 h, unmonitored",
  "95712": "Video EEG, technologist review and technical description, 2–12 h, intermittent monitoring",
  "95713": "Video EEG, technologist review and technical description, 2–12 h, continuous real-time monitoring",
  "95714": "Video EEG, technologist review and technical description, each 12–26 h increment, unmonitored",
  "95715": "Video EEG, technologist review and technical description, each 12–26 h increment, intermittent monitoring",
  "95716":
    "Video EEG, technologist review and technical description, each 12–26 h increment, continuous real-time monitoring",
  "95717": "EEG without video, physician interpretation and report, 2–12 h of recording",
  "95718": "Video EEG, physician interpretation and report, 2–12 h of recording",
  "95719":
    "EEG without video, physician interpretation and report after each 24-h period, each increment over 12 h up to 26 h",
  "95720": "Video EEG, physician interpretation and report after each 24-h period, each increment over 12 h up to 26 h",
  "95721": "EEG without video, physician summary report of the complete study, over 36 h up to 60 h",
  "95722": "Video EEG, physician summary report of the complete study, over 36 h up to 60 h",
  "95723": "EEG without video, physician summary report of the complete study, over 60 h up to 84 h",
  "95724": "Video EEG, physician summary report of the complete study, over 60 h up to 84 h",
  "95725": "EEG without video, physician summary report of the complete study, over 84 h",
  "95726": "Video EEG, physician summary report of the complete study, over 84 h",
  "95999": "Unlisted neurological or neuromuscular diagnostic procedure (EEG setup with fewer than 8 channels)",
};

const hour = 3600;
/** Below 2 h long-term codes do not apply (DOMAIN.md §2.3 "Routine vs long-term"). */
const minimumSeconds = 2 * hour;
/** A study of at most 12 h is one 2–12 h code (95705–95707, 95711–95713). */
const shortMaxSeconds = 12 * hour;
/** An increment is "greater than 12 h up to 26 h" (95708–95710, 95714–95716). */
const incrementMaxSeconds = 26 * hour;
/** Longer studies are cut into 24-h periods, each reported after it ends (95719/95720 "after each 24-h period"). */
const periodSeconds = 24 * hour;
/** 95700 needs at least 8 channels; fewer is the unlisted 95999 (DOMAIN.md §2.1). */
const minimumChannels = 8;
/** Complete-study summaries by length (DOMAIN.md §2.2); a study over `overSeconds` takes that band. */
const summaryBands = [
  { overSeconds: 84 * hour, label: "over 84 h", codes: { plain: "95725", video: "95726" } },
  { overSeconds: 60 * hour, label: "over 60 h up to 84 h", codes: { plain: "95723", video: "95724" } },
  { overSeconds: 36 * hour, label: "over 36 h up to 60 h", codes: { plain: "95721", video: "95722" } },
] as const;
const summaryMinimumSeconds = 36 * hour;

/** The levels of monitoring, highest first: ties between modes go to the higher level. */
const modesByRank: readonly Mode[] = ["continuous", "intermittent", "unmonitored"];

type SegmentKind = "short" | "increment";

/** DOMAIN.md §2.1: by length (2–12 h or a 12–26 h increment), video and level of monitoring. */
const technicalCodes: Record<SegmentKind, Record<"plain" | "video", Record<Mode, string>>> = {
  short: {
    plain: { unmonitored: "95705", intermittent: "95706", continuous: "95707" },
    video: { unmonitored: "95711", intermittent: "95712", continuous: "95713" },
  },
  increment: {
    plain: { unmonitored: "95708", intermittent: "95709", continuous: "95710" },
    video: { unmonitored: "95714", intermittent: "95715", continuous: "95716" },
  },
};

/** DOMAIN.md §2.2: the physician's report of a 2–12 h recording or segment, and the daily report of an increment. */
const professionalCodes: Record<SegmentKind, Record<"plain" | "video", string>> = {
  short: { plain: "95717", video: "95718" },
  increment: { plain: "95719", video: "95720" },
};

/** A stretch of recording time (epoch seconds) with one level of monitoring and one video state. */
export type Piece = { start: number; end: number; mode: Mode; video: boolean };

type Segment = {
  kind: SegmentKind;
  /** A 2–12 h segment after increments (the final partial segment). */
  final: boolean;
  seconds: number;
  modeSeconds: Record<Mode, number>;
  videoSeconds: number;
  mode: Mode;
  videoPercent: number;
  video: boolean;
};

export function suggestCpt(input: {
  logs: readonly CptLog[];
  reviewChecks: readonly Date[];
  capExceeded: boolean;
  now: Date;
  config: CptRulesConfig;
  /** The client's zone, in which warnings name times. */
  timeZone: string;
}): CptSuggestion {
  const { logs, config } = input;
  const pieces = recordingPieces(logs, input.now);
  const recordingSeconds = sum(pieces.map((piece) => piece.end - piece.start));
  const videoSeconds = sum(pieces.filter((piece) => piece.video).map((piece) => piece.end - piece.start));
  const videoPercent = percentOf(videoSeconds, recordingSeconds);
  const recordingHours = hoursFromSeconds(recordingSeconds);
  const warnings = new Map<CptWarningId, string>();
  const lines: CptSuggestionLine[] = [];

  if (recordingSeconds < minimumSeconds) {
    warnings.set("under-2-hours", underTwoHoursMessage(recordingSeconds));
  } else {
    lines.push(setupLine(logs, warnings));
    const segments = measureSegments(cutSegments(recordingSeconds, config), pieces, config);
    lines.push(...technicalLines(segments, config));
    lines.push(
      ...professionalLines(segments, {
        recordingSeconds,
        recordingHours,
        videoPercent,
        studyVideo: meetsVideoThreshold(videoSeconds, recordingSeconds, config),
        config,
      }),
    );
  }

  const gaps = reviewCheckGaps(logs, input.reviewChecks, input.now);
  if (gaps.length > 0) warnings.set("review-check-gap", reviewGapMessage(gaps, input.timeZone));
  if (input.capExceeded) warnings.set("technologist-cap-exceeded", capExceededMessage);

  // One warning per id, in the contract's order so screens and billing notes list them the same way.
  const ordered: CptWarning[] = cptWarningIds.flatMap((id) => {
    const message = warnings.get(id);
    return message === undefined ? [] : [{ id, message }];
  });
  return { recordingHours, videoPercent, lines, warnings: ordered };
}

// ---------------------------------------------------------------------------------------------------------------
// The recording timeline
// ---------------------------------------------------------------------------------------------------------------

const toSeconds = (instant: Date) => Math.floor(instant.getTime() / 1000);

/**
 * Recording time (DOMAIN.md §2.3 "Time counting") is the union of the billable monitoring logs, a running log
 * counting to `now`; overlapping logs are not counted twice. Where logs overlap, the time has the highest level of
 * monitoring among them (a continuously watched hour is continuous even if an intermittent log also covers it).
 * It has video where any monitoring log with video covers it ("video recorded concurrently", §2.3), whether or not
 * that log is billable: video is a fact of the recording, not of its billing.
 */
export function recordingPieces(logs: readonly CptLog[], now: Date): Piece[] {
  // One sweep over the logs' starts and ends (a study of many shifts has hundreds of logs: testing every log at
  // every boundary was quadratic). Between two consecutive boundaries nothing starts or ends, so coverage is the
  // same throughout; each log covers [from, to).
  type Change = { modes: Record<Mode, number>; video: number };
  const changes = new Map<number, Change>();
  const changeAt = (at: number) => {
    let change = changes.get(at);
    if (!change) {
      change = { modes: { unmonitored: 0, intermittent: 0, continuous: 0 }, video: 0 };
      changes.set(at, change);
    }
    return change;
  };
  for (const log of logs) {
    if (log.activity !== "monitoring") continue;
    const from = toSeconds(log.start);
    const to = toSeconds(log.end ?? now);
    if (to <= from) continue;
    if (log.billable) {
      changeAt(from).modes[log.mode] += 1;
      changeAt(to).modes[log.mode] -= 1;
    }
    if (log.video) {
      changeAt(from).video += 1;
      changeAt(to).video -= 1;
    }
  }
  const boundaries = [...changes.keys()].sort((a, b) => a - b);
  const active: Record<Mode, number> = { unmonitored: 0, intermittent: 0, continuous: 0 };
  let filming = 0;
  const pieces: Piece[] = [];
  for (let index = 0; index + 1 < boundaries.length; index += 1) {
    const start = boundaries[index] as number;
    const end = boundaries[index + 1] as number;
    const change = changes.get(start) as Change;
    for (const level of modesByRank) active[level] += change.modes[level];
    filming += change.video;
    // The highest level of monitoring among the billable logs covering the stretch (modesByRank: highest first).
    const mode = modesByRank.find((level) => active[level] > 0);
    if (mode === undefined) continue;
    const video = filming > 0;
    const previous = pieces.at(-1);
    if (previous && previous.end === start && previous.mode === mode && previous.video === video) previous.end = end;
    else pieces.push({ start, end, mode, video });
  }
  return pieces;
}

/**
 * Cuts the cumulative recording time into report segments (DOMAIN.md §2.1–2.3): up to 12 h is one 2–12 h segment;
 * longer studies take a 24-h increment while more than 26 h remain, then a remainder over 12 h (up to 26 h) is one
 * more increment. A remainder of 2–12 h is the final partial segment: DOMAIN.md recalls ([R]) that it is reported
 * with the 2–12 h code (`finalPartialSegmentUsesShortCode`, the default); until the codebook confirms it an
 * operator may turn that off, and then the final partial segment is not reported at all (increments need over
 * 12 h). A remainder under 2 h joins the previous increment, which stays within 26 h.
 */
export function cutSegments(
  recordingSeconds: number,
  config: Pick<CptRulesConfig, "finalPartialSegmentUsesShortCode">,
): { kind: SegmentKind; seconds: number }[] {
  if (recordingSeconds < minimumSeconds) return [];
  if (recordingSeconds <= shortMaxSeconds) return [{ kind: "short", seconds: recordingSeconds }];
  const segments: { kind: SegmentKind; seconds: number }[] = [];
  let rest = recordingSeconds;
  while (rest > incrementMaxSeconds) {
    segments.push({ kind: "increment", seconds: periodSeconds });
    rest -= periodSeconds;
  }
  const previous = segments.at(-1);
  if (rest > shortMaxSeconds) segments.push({ kind: "increment", seconds: rest });
  else if (!previous) segments.push({ kind: "short", seconds: rest });
  else if (rest < minimumSeconds) previous.seconds += rest;
  else if (config.finalPartialSegmentUsesShortCode) segments.push({ kind: "short", seconds: rest });
  return segments;
}

/**
 * Each segment's level of monitoring (the mode of most of its time) and video share, from its part of the
 * timeline. Segments are consecutive stretches of cumulative recording time, so each starts where the last ended.
 */
export function measureSegments(
  cuts: readonly { kind: SegmentKind; seconds: number }[],
  pieces: readonly Piece[],
  config: CptRulesConfig,
): Segment[] {
  let from = 0;
  // Pieces (each longer than nothing, recordingPieces) and segments both run forward along the cumulative recording
  // time, so a segment's walk starts at the first piece reaching past its start (`first`, which starts at
  // `firstAt`) and stops at the first piece starting at or after its end: one pass over the pieces in all, not one
  // per segment. The overlaps are added in the same order as a full walk would, so the sums are the same.
  let first = 0;
  let firstAt = 0;
  return cuts.map((cut, index) => {
    const to = from + cut.seconds;
    const modeSeconds: Record<Mode, number> = { unmonitored: 0, intermittent: 0, continuous: 0 };
    let videoSeconds = 0;
    while (first < pieces.length && firstAt + lengthOf(pieces[first] as Piece) <= from) {
      firstAt += lengthOf(pieces[first] as Piece);
      first += 1;
    }
    let position = firstAt;
    for (let at = first; at < pieces.length && position < to; at += 1) {
      const piece = pieces[at] as Piece;
      const length = lengthOf(piece);
      const overlap = Math.min(to, position + length) - Math.max(from, position);
      if (overlap > 0) {
        modeSeconds[piece.mode] += overlap;
        if (piece.video) videoSeconds += overlap;
      }
      position += length;
    }
    from = to;
    // Most of the segment's time decides; modesByRank puts the higher level first, so it wins a tie.
    const mode = modesByRank.reduce((best, candidate) =>
      modeSeconds[candidate] > modeSeconds[best] ? candidate : best,
    );
    return {
      final: cut.kind === "short" && index > 0,
      modeSeconds,
      videoSeconds,
      mode,
      videoPercent: percentOf(videoSeconds, cut.seconds),
      video: meetsVideoThreshold(videoSeconds, cut.seconds, config),
      ...cut,
    };
  });
}

function lengthOf(piece: Piece): number {
  return piece.end - piece.start;
}

function percentOf(part: number, whole: number): number {
  return whole > 0 ? Math.floor((100 * part) / whole) : 0;
}

/**
 * Video codes need video for at least the threshold share of the recording time (DOMAIN.md §2.3 [V], 80 %). The
 * comparison is exact (for a whole-number threshold it is the same as the whole percent shown ≥ the threshold).
 */
function meetsVideoThreshold(videoSeconds: number, seconds: number, config: CptRulesConfig): boolean {
  return seconds > 0 && 100 * videoSeconds >= config.videoThresholdPercent * seconds;
}

// ---------------------------------------------------------------------------------------------------------------
// Lines
// ---------------------------------------------------------------------------------------------------------------

/**
 * 95700 once per study, in person, with at least 8 channels (DOMAIN.md §2.1, §2.3 "95700 frequency"); the
 * study's channel count is the highest on any of its logs. Fewer than 8 is 95999 (unlisted); no count at all keeps
 * 95700 but asks for the count to be checked.
 */
function setupLine(logs: readonly CptLog[], warnings: Map<CptWarningId, string>): CptSuggestionLine {
  const counts = logs.map((log) => log.channels).filter((channels): channels is number => channels !== null);
  if (counts.length === 0) {
    warnings.set(
      "channels-not-recorded",
      "None of the case's time logs records a channel count: 95700 needs at least 8 channels (fewer is 95999). Check the montage and record the channels on the time logs.",
    );
    return line("95700", 1, "technical", "setup and takedown once per study; channel count not recorded");
  }
  const channels = Math.max(...counts);
  if (channels < minimumChannels) {
    warnings.set(
      "fewer-than-8-channels",
      `The time logs record at most ${channels} channel${channels === 1 ? "" : "s"}: 95700 needs at least ${minimumChannels}, so setup and takedown are suggested as the unlisted 95999.`,
    );
    return line("95999", 1, "technical", `setup and takedown once per study with ${channels} channels (95700 needs 8)`);
  }
  return line("95700", 1, "technical", `setup and takedown once per study; ${channels} channels`);
}

/** One line per distinct code, in the order of the segments, `units` = how many segments it covers. */
function technicalLines(segments: readonly Segment[], config: CptRulesConfig): CptSuggestionLine[] {
  return groupByCode(segments, (segment) => technicalCodes[segment.kind][videoKey(segment.video)][segment.mode]).map(
    ({ code, members }) =>
      line(
        code,
        members.length,
        "technical",
        [segmentsText(members), modeText(members), videoText(members, config)].join(", "),
      ),
  );
}

/**
 * DOMAIN.md §2.2–2.3: a study up to 12 h is one 2–12 h report (95717/95718, video by the whole study). Longer
 * studies are reported daily, one 95719/95720 per 24-h increment (video by that increment) and the final 2–12 h
 * segment as 95717/95718 — unless the [R] rule `summary-over-36h` applies to a study over 36 h: then it is one
 * complete-study summary (95721–95726 by length, video by the whole study) and no daily report at all, the two
 * never being combined. Studies over 12 h up to 36 h are always daily.
 */
function professionalLines(
  segments: readonly Segment[],
  study: {
    recordingSeconds: number;
    recordingHours: string;
    videoPercent: number;
    studyVideo: boolean;
    config: CptRulesConfig;
  },
): CptSuggestionLine[] {
  const { config } = study;
  const studyVideoText = videoPhrase(study.videoPercent, study.studyVideo, config);
  if (study.recordingSeconds <= shortMaxSeconds) {
    const code = professionalCodes.short[videoKey(study.studyVideo)];
    return [line(code, 1, "professional", `recording of ${study.recordingHours} h (2–12 h), ${studyVideoText}`)];
  }
  if (config.professionalReporting === "summary-over-36h" && study.recordingSeconds > summaryMinimumSeconds) {
    const band = summaryBands.find((candidate) => study.recordingSeconds > candidate.overSeconds) ?? summaryBands[2];
    return [
      line(
        band.codes[videoKey(study.studyVideo)],
        1,
        "professional",
        `one complete-study summary of ${study.recordingHours} h (${band.label}) instead of daily reports, ${studyVideoText}`,
      ),
    ];
  }
  return groupByCode(segments, (segment) => professionalCodes[segment.kind][videoKey(segment.video)]).map(
    ({ code, members }) => {
      const first = members[0] as Segment;
      const what =
        first.kind === "increment"
          ? `a report after each 24-h period: ${segmentsText(members)}`
          : segmentsText(members);
      return line(code, members.length, "professional", `${what}, ${videoText(members, config)}`);
    },
  );
}

function line(
  code: string,
  units: number,
  component: CptSuggestionLine["component"],
  basis: string,
): CptSuggestionLine {
  return { code, units, component, description: cptCodeDescriptions[code] ?? code, basis };
}

function groupByCode(
  segments: readonly Segment[],
  codeOf: (segment: Segment) => string,
): { code: string; members: Segment[] }[] {
  const groups = new Map<string, Segment[]>();
  for (const segment of segments) {
    const code = codeOf(segment);
    groups.set(code, [...(groups.get(code) ?? []), segment]);
  }
  return [...groups].map(([code, members]) => ({ code, members }));
}

const videoKey = (video: boolean) => (video ? "video" : "plain");

/** "2 increments of 12–26 h (24.00 h + 24.00 h)", "final 2–12 h segment (12.00 h)", "2–12 h segment (10.50 h)". */
function segmentsText(members: readonly Segment[]): string {
  const hours = members.map((segment) => `${hoursFromSeconds(segment.seconds)} h`).join(" + ");
  const first = members[0] as Segment;
  // There is at most one 2–12 h segment: the whole study, or the final one after increments.
  if (first.kind === "short") return `${first.final ? "final " : ""}2–12 h segment (${hours})`;
  return `${members.length} increment${members.length === 1 ? "" : "s"} of 12–26 h (${hours})`;
}

/** "continuous", or "continuous for 75% of the time" when other levels share the segments. */
function modeText(members: readonly Segment[]): string {
  const first = members[0] as Segment;
  const total = sum(members.map((segment) => segment.seconds));
  const share = percentOf(sum(members.map((segment) => segment.modeSeconds[first.mode])), total);
  return share === 100 ? first.mode : `${first.mode} for ${share}% of the time (the majority)`;
}

function videoText(members: readonly Segment[], config: CptRulesConfig): string {
  const percents = [...new Set(members.map((segment) => segment.videoPercent))].sort((a, b) => a - b);
  const first = members[0] as Segment;
  const shown = percents.length === 1 ? `${percents[0]}` : `${percents[0]}–${percents.at(-1)}`;
  return videoPhrase(shown, first.video, config);
}

function videoPhrase(percent: number | string, video: boolean, config: CptRulesConfig): string {
  if (video) return `video ${percent}%`;
  if (percent === 0 || percent === "0") return "no video";
  return `video ${percent}% (under ${config.videoThresholdPercent}%)`;
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
