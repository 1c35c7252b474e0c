import type { CptSuggestion } from "@vigil/contract";
import { describe, expect, it } from "vitest";
import {
  type CptLog,
  type CptRulesConfig,
  cptCodeDescriptions,
  cutSegments,
  measureSegments,
  type Piece,
  recordingPieces,
  suggestCpt,
} from "./cpt-rules.js";

const h = 3600;
const base = Date.parse("2026-11-16T00:00:00Z");
/** The instant `seconds` after 2026-11-16T00:00:00Z. */
const at = (seconds: number) => new Date(base + seconds * 1000);
const farLater = at(400 * h);

const defaults: CptRulesConfig = {
  finalPartialSegmentUsesShortCode: true,
  professionalReporting: "summary-over-36h",
  videoThresholdPercent: 80,
};

function monitoring(from: number, to: number | null, overrides: Partial<CptLog> = {}): CptLog {
  return {
    start: at(from),
    end: to === null ? null : at(to),
    activity: "monitoring",
    mode: "continuous",
    video: false,
    billable: true,
    channels: 21,
    ...overrides,
  };
}

function suggest(
  logs: CptLog[],
  options: {
    reviewChecks?: Date[];
    capExceeded?: boolean;
    now?: Date;
    config?: Partial<CptRulesConfig>;
    timeZone?: string;
  } = {},
): CptSuggestion {
  return suggestCpt({
    logs,
    reviewChecks: options.reviewChecks ?? [],
    capExceeded: options.capExceeded ?? false,
    now: options.now ?? farLater,
    config: { ...defaults, ...options.config },
    timeZone: options.timeZone ?? "UTC",
  });
}

/** "code×units component: basis", one per line, so expectations read like the suggestion on screen. */
const lines = (suggestion: CptSuggestion) =>
  suggestion.lines.map((line) => `${line.code}×${line.units} ${line.component}: ${line.basis}`);
const codes = (suggestion: CptSuggestion) => suggestion.lines.map((line) => `${line.code}×${line.units}`);
const warningIds = (suggestion: CptSuggestion) => suggestion.warnings.map((warning) => warning.id);

describe("the 2-hour minimum", () => {
  it("suggests no long-term code for 1:59:59 and says which codes apply instead", () => {
    const suggestion = suggest([monitoring(0, 2 * h - 1)]);
    expect(suggestion).toEqual({
      recordingHours: "2.00", // 1.99972 h rounds to 2.00, hence the exact length in the message
      videoPercent: 0,
      lines: [],
      warnings: [
        {
          id: "under-2-hours",
          message:
            "The billable recording lasted 1 h 59 min 59 s, under 2 hours: long-term EEG codes (95700–95726) do not apply. Report a routine or extended EEG code instead (95812 for 41–60 minutes, 95813 for over 1 hour; 95816/95819/95822 for routine EEG), DOMAIN.md §2.3.",
        },
      ],
    });
  });

  it("suggests setup, a 2–12 h code and its report at exactly 2:00:00", () => {
    const suggestion = suggest([monitoring(0, 2 * h)]);
    expect(suggestion.recordingHours).toBe("2.00");
    expect(lines(suggestion)).toEqual([
      "95700×1 technical: setup and takedown once per study; 21 channels",
      "95707×1 technical: 2–12 h segment (2.00 h), continuous, no video",
      "95717×1 professional: recording of 2.00 h (2–12 h), no video",
    ]);
    expect(suggestion.warnings).toEqual([]);
  });

  it("counts only billable monitoring logs as recording time", () => {
    const suggestion = suggest([
      monitoring(-h, 0, { activity: "setup", channels: 32 }),
      monitoring(0, 5 * h, { billable: false }),
      monitoring(5 * h, 6 * h, { activity: "review" }),
    ]);
    expect(suggestion.recordingHours).toBe("0.00");
    expect(suggestion.lines).toEqual([]);
    expect(suggestion.warnings).toEqual([
      {
        id: "under-2-hours",
        message:
          "The case has no billable monitoring time: long-term EEG codes (95700–95726) do not apply. Report a routine or extended EEG code instead (95812 for 41–60 minutes, 95813 for over 1 hour; 95816/95819/95822 for routine EEG), DOMAIN.md §2.3.",
      },
    ]);
  });
});

describe("recording time", () => {
  it("is the union of the logs: overlaps count once, the higher level wins where they overlap", () => {
    const suggestion = suggest(
      [
        monitoring(0, 3 * h, { mode: "intermittent" }),
        monitoring(h, 4 * h, { mode: "continuous" }),
        // Video recorded by a non-billable log still covers the recording.
        monitoring(0, 4 * h, { billable: false, video: true }),
      ],
      { reviewChecks: [at(1.5 * h)] },
    );
    expect(suggestion.recordingHours).toBe("4.00");
    expect(suggestion.videoPercent).toBe(100);
    expect(lines(suggestion)).toEqual([
      "95700×1 technical: setup and takedown once per study; 21 channels",
      // [0, 1 h) intermittent, [1 h, 4 h) continuous: 3 of 4 hours.
      "95713×1 technical: 2–12 h segment (4.00 h), continuous for 75% of the time (the majority), video 100%",
      "95718×1 professional: recording of 4.00 h (2–12 h), video 100%",
    ]);
  });

  it("counts a running log up to now", () => {
    const suggestion = suggest([monitoring(0, null)], { now: at(3.5 * h) });
    expect(suggestion.recordingHours).toBe("3.50");
    expect(lines(suggestion)[1]).toBe("95707×1 technical: 2–12 h segment (3.50 h), continuous, no video");
  });
});

describe("the 12-hour and 26-hour edges", () => {
  it("keeps exactly 12 h on the 2–12 h codes", () => {
    const suggestion = suggest([monitoring(0, 12 * h, { video: true })]);
    expect(lines(suggestion)).toEqual([
      "95700×1 technical: setup and takedown once per study; 21 channels",
      "95713×1 technical: 2–12 h segment (12.00 h), continuous, video 100%",
      "95718×1 professional: recording of 12.00 h (2–12 h), video 100%",
    ]);
  });

  it("makes 12 h + 1 s one 12–26 h increment with a daily report", () => {
    const suggestion = suggest([monitoring(0, 12 * h + 1, { video: true })]);
    expect(suggestion.recordingHours).toBe("12.00");
    expect(lines(suggestion)).toEqual([
      "95700×1 technical: setup and takedown once per study; 21 channels",
      "95716×1 technical: 1 increment of 12–26 h (12.00 h), continuous, video 100%",
      "95720×1 professional: a report after each 24-h period: 1 increment of 12–26 h (12.00 h), video 100%",
    ]);
  });

  it("keeps exactly 26 h as one increment", () => {
    const suggestion = suggest([monitoring(0, 26 * h, { mode: "unmonitored" })]);
    expect(lines(suggestion)).toEqual([
      "95700×1 technical: setup and takedown once per study; 21 channels",
      "95708×1 technical: 1 increment of 12–26 h (26.00 h), unmonitored, no video",
      "95719×1 professional: a report after each 24-h period: 1 increment of 12–26 h (26.00 h), no video",
    ]);
  });

  it("cuts 26 h + 1 s into a 24-h increment and a final 2–12 h segment of 2 h + 1 s", () => {
    const suggestion = suggest([monitoring(0, 26 * h + 1, { mode: "unmonitored" })]);
    expect(lines(suggestion)).toEqual([
      "95700×1 technical: setup and takedown once per study; 21 channels",
      "95708×1 technical: 1 increment of 12–26 h (24.00 h), unmonitored, no video",
      "95705×1 technical: final 2–12 h segment (2.00 h), unmonitored, no video",
      "95719×1 professional: a report after each 24-h period: 1 increment of 12–26 h (24.00 h), no video",
      "95717×1 professional: final 2–12 h segment (2.00 h), no video",
    ]);
  });
});

describe("the video threshold", () => {
  // 10 h of continuous recording; video on the first part only.
  const study = (videoSeconds: number) => [
    monitoring(0, videoSeconds, { video: true }),
    monitoring(videoSeconds, 10 * h, { video: false }),
  ];

  it("uses the codes without video at 79% (7.9 of 10 h)", () => {
    const suggestion = suggest(study(28_440));
    expect(suggestion.videoPercent).toBe(79);
    expect(lines(suggestion).slice(1)).toEqual([
      "95707×1 technical: 2–12 h segment (10.00 h), continuous, video 79% (under 80%)",
      "95717×1 professional: recording of 10.00 h (2–12 h), video 79% (under 80%)",
    ]);
  });

  it("does not round 79.99% up to the threshold", () => {
    const suggestion = suggest(study(28_796)); // 79.988…%
    expect(suggestion.videoPercent).toBe(79);
    expect(codes(suggestion)).toEqual(["95700×1", "95707×1", "95717×1"]);
  });

  it("uses the video codes at 80% (8 of 10 h)", () => {
    const suggestion = suggest(study(28_800));
    expect(suggestion.videoPercent).toBe(80);
    expect(lines(suggestion).slice(1)).toEqual([
      "95713×1 technical: 2–12 h segment (10.00 h), continuous, video 80%",
      "95718×1 professional: recording of 10.00 h (2–12 h), video 80%",
    ]);
  });

  it("follows a configured threshold", () => {
    const suggestion = suggest(study(28_440), { config: { videoThresholdPercent: 75 } });
    expect(codes(suggestion)).toEqual(["95700×1", "95713×1", "95718×1"]);
  });

  it("judges each segment on its own time, the summary and short study on the whole", () => {
    // 30 h: the 24-h increment has no video, the final 6 h all video; the study is 6/30 = 20% video.
    const suggestion = suggest([monitoring(0, 24 * h), monitoring(24 * h, 30 * h, { video: true })]);
    expect(suggestion.videoPercent).toBe(20);
    expect(lines(suggestion).slice(1)).toEqual([
      "95710×1 technical: 1 increment of 12–26 h (24.00 h), continuous, no video",
      "95713×1 technical: final 2–12 h segment (6.00 h), continuous, video 100%",
      "95719×1 professional: a report after each 24-h period: 1 increment of 12–26 h (24.00 h), no video",
      "95718×1 professional: final 2–12 h segment (6.00 h), video 100%",
    ]);
  });
});

describe("setup and takedown (95700)", () => {
  it("is 95999 with a warning below 8 channels", () => {
    const suggestion = suggest([monitoring(0, 3 * h, { channels: 7 })]);
    expect(lines(suggestion)[0]).toBe(
      "95999×1 technical: setup and takedown once per study with 7 channels (95700 needs 8)",
    );
    expect(suggestion.warnings).toEqual([
      {
        id: "fewer-than-8-channels",
        message:
          "The time logs record at most 7 channels: 95700 needs at least 8, so setup and takedown are suggested as the unlisted 95999.",
      },
    ]);
  });

  it("is 95700 at 8 channels, taking the highest count on any log", () => {
    expect(lines(suggest([monitoring(0, 3 * h, { channels: 8 })]))[0]).toBe(
      "95700×1 technical: setup and takedown once per study; 8 channels",
    );
    const suggestion = suggest([
      monitoring(-h, 0, { activity: "setup", channels: 8 }),
      monitoring(0, 3 * h, { channels: null }),
    ]);
    expect(lines(suggestion)[0]).toBe("95700×1 technical: setup and takedown once per study; 8 channels");
    expect(suggestion.warnings).toEqual([]);
  });

  it("stays 95700 but warns when no log records a channel count", () => {
    const suggestion = suggest([monitoring(0, 3 * h, { channels: null })]);
    expect(lines(suggestion)[0]).toBe(
      "95700×1 technical: setup and takedown once per study; channel count not recorded",
    );
    expect(suggestion.warnings).toEqual([
      {
        id: "channels-not-recorded",
        message:
          "None of the case's time logs records a channel count: 95700 needs at least 8 channels (fewer is 95999). Check the montage and record the channels on the time logs.",
      },
    ]);
  });
});

describe("multi-day studies", () => {
  it("cuts 60 h recorded over three days into 2 increments and a final 12 h, with one 36–60 h summary", () => {
    // Three 20-h recordings with 4-h breaks: the cut follows cumulative recording time, not the clock.
    const logs = [
      monitoring(0, 20 * h, { video: true }),
      monitoring(24 * h, 44 * h, { video: true }),
      monitoring(48 * h, 68 * h, { video: true }),
    ];
    const suggestion = suggest(logs);
    expect(suggestion.recordingHours).toBe("60.00");
    expect(lines(suggestion)).toEqual([
      "95700×1 technical: setup and takedown once per study; 21 channels",
      "95716×2 technical: 2 increments of 12–26 h (24.00 h + 24.00 h), continuous, video 100%",
      "95713×1 technical: final 2–12 h segment (12.00 h), continuous, video 100%",
      "95722×1 professional: one complete-study summary of 60.00 h (over 36 h up to 60 h) instead of daily reports, video 100%",
    ]);
  });

  it("reports the same study daily when configured so, never combining daily reports and a summary", () => {
    const logs = [monitoring(0, 60 * h, { video: true })];
    const suggestion = suggest(logs, { config: { professionalReporting: "daily" } });
    expect(lines(suggestion).filter((line) => line.includes("professional"))).toEqual([
      "95720×2 professional: a report after each 24-h period: 2 increments of 12–26 h (24.00 h + 24.00 h), video 100%",
      "95718×1 professional: final 2–12 h segment (12.00 h), video 100%",
    ]);
  });

  it.each([
    { label: "36 h", length: 36 * h, expected: ["95700×1", "95710×1", "95707×1", "95719×1", "95717×1"] }, // not over 36 h: daily
    { label: "36 h + 1 s", length: 36 * h + 1, expected: ["95700×1", "95710×2", "95721×1"] }, // 24 + 12 h 1 s
    { label: "50 h", length: 50 * h, expected: ["95700×1", "95710×2", "95721×1"] }, // 24 + 26
    { label: "60 h", length: 60 * h, expected: ["95700×1", "95710×2", "95707×1", "95721×1"] }, // 24 + 24 + 12
    { label: "60 h + 1 s", length: 60 * h + 1, expected: ["95700×1", "95710×3", "95723×1"] },
    { label: "84 h", length: 84 * h, expected: ["95700×1", "95710×3", "95707×1", "95723×1"] },
    { label: "84 h + 1 s", length: 84 * h + 1, expected: ["95700×1", "95710×4", "95725×1"] },
    { label: "100 h", length: 100 * h, expected: ["95700×1", "95710×4", "95707×1", "95725×1"] }, // 4 × 24 + 4
  ])("codes a continuous study of $label as $expected", ({ length, expected }) => {
    expect(codes(suggest([monitoring(0, length)]))).toEqual(expected);
  });

  it("chooses each segment's level by the majority of its time, a tie going to the higher level", () => {
    const suggestion = suggest(
      [
        monitoring(0, 11 * h, { mode: "continuous" }),
        monitoring(11 * h, 24 * h, { mode: "intermittent" }),
        monitoring(24 * h, 27 * h, { mode: "continuous" }),
        monitoring(27 * h, 30 * h, { mode: "unmonitored" }),
      ],
      { reviewChecks: [13, 15, 17, 19, 21, 23].map((hours) => at(hours * h)) },
    );
    expect(lines(suggestion).slice(1)).toEqual([
      // 13 of 24 h intermittent = 54%.
      "95709×1 technical: 1 increment of 12–26 h (24.00 h), intermittent for 54% of the time (the majority), no video",
      // 3 h continuous, 3 h unmonitored.
      "95707×1 technical: final 2–12 h segment (6.00 h), continuous for 50% of the time (the majority), no video",
      "95719×1 professional: a report after each 24-h period: 1 increment of 12–26 h (24.00 h), no video",
      "95717×1 professional: final 2–12 h segment (6.00 h), no video",
    ]);
    expect(suggestion.warnings).toEqual([]);
  });
});

describe("cutting recording time into segments", () => {
  it("cuts by the 2/12/26-hour rules", () => {
    expect(cutSegments(2 * h - 1, defaults)).toEqual([]);
    expect(cutSegments(12 * h, defaults)).toEqual([{ kind: "short", seconds: 43_200 }]);
    expect(cutSegments(26 * h, defaults)).toEqual([{ kind: "increment", seconds: 93_600 }]);
    expect(cutSegments(50 * h, defaults)).toEqual([
      { kind: "increment", seconds: 86_400 },
      { kind: "increment", seconds: 93_600 },
    ]);
    expect(cutSegments(30 * h, defaults)).toEqual([
      { kind: "increment", seconds: 86_400 },
      { kind: "short", seconds: 21_600 },
    ]);
  });

  it("leaves a final 2–12 h segment unreported when the [R] short-code rule is turned off", () => {
    const withoutShortCode = { finalPartialSegmentUsesShortCode: false };
    expect(cutSegments(26 * h + 1, withoutShortCode)).toEqual([{ kind: "increment", seconds: 86_400 }]);
    expect(cutSegments(36 * h, withoutShortCode)).toEqual([{ kind: "increment", seconds: 86_400 }]);
    // Nothing else changes: a study up to 12 h is still one 2–12 h segment, a remainder over 12 h an increment.
    expect(cutSegments(12 * h, withoutShortCode)).toEqual([{ kind: "short", seconds: 43_200 }]);
    expect(cutSegments(40 * h, withoutShortCode)).toEqual([
      { kind: "increment", seconds: 86_400 },
      { kind: "increment", seconds: 57_600 },
    ]);
  });
});

describe("review checks during intermittent monitoring", () => {
  const intermittent = (from: number, to: number | null) => monitoring(from, to, { mode: "intermittent" });

  it("accepts checks exactly 2 h apart", () => {
    const suggestion = suggest([intermittent(0, 6 * h)], { reviewChecks: [at(2 * h), at(4 * h), at(6 * h)] });
    expect(suggestion.warnings).toEqual([]);
  });

  it("flags a gap just over 2 h between two checks", () => {
    const suggestion = suggest([intermittent(0, 6 * h)], { reviewChecks: [at(4 * h + 1), at(2 * h)] });
    expect(suggestion.warnings).toEqual([
      {
        id: "review-check-gap",
        message:
          "Intermittent monitoring went more than 2 hours without a documented review check once: Nov 16, 2026, 02:00 UTC (UTC) → Nov 16, 2026, 04:00 UTC (UTC) (2 h 0 min 1 s, from a review check to the next check). Intermittent codes need a real-time review at least every 2 hours (DOMAIN.md §2.3).",
      },
    ]);
  });

  it("names the gap's times in the client's zone, with the zone's name at that time", () => {
    const suggestion = suggest([intermittent(0, 6 * h)], {
      reviewChecks: [at(4 * h + 1), at(2 * h)],
      timeZone: "America/New_York",
    });
    expect(suggestion.warnings[0]?.message).toContain(
      "Nov 15, 2026, 21:00 EST (America/New_York) → Nov 15, 2026, 23:00 EST (America/New_York) (2 h 0 min 1 s",
    );
  });

  it("measures from the start of monitoring, ignoring checks before it, and to its end", () => {
    const suggestion = suggest([intermittent(0, 2 * h + 1)], { reviewChecks: [at(-h)] });
    expect(suggestion.warnings.map((warning) => warning.message)).toEqual([
      "Intermittent monitoring went more than 2 hours without a documented review check once: Nov 16, 2026, 00:00 UTC (UTC) → Nov 16, 2026, 02:00 UTC (UTC) (2 h 0 min 1 s, from the start of intermittent monitoring to its end). Intermittent codes need a real-time review at least every 2 hours (DOMAIN.md §2.3).",
    ]);
    expect(suggest([intermittent(0, 2 * h)], { reviewChecks: [at(-h)] }).warnings).toEqual([]);
  });

  it("treats back-to-back logs as one stretch, so a gap cannot hide at the seam", () => {
    const suggestion = suggest([intermittent(0, 1.5 * h), intermittent(1.5 * h, 3 * h)]);
    expect(suggestion.warnings.map((warning) => warning.message)).toEqual([
      "Intermittent monitoring went more than 2 hours without a documented review check once: Nov 16, 2026, 00:00 UTC (UTC) → Nov 16, 2026, 03:00 UTC (UTC) (3 h 0 min 0 s, from the start of intermittent monitoring to its end). Intermittent codes need a real-time review at least every 2 hours (DOMAIN.md §2.3).",
    ]);
  });

  it("measures a running log to now", () => {
    const suggestion = suggest([intermittent(0, null)], { reviewChecks: [at(h)], now: at(3 * h + 1) });
    expect(suggestion.warnings.map((warning) => warning.message)).toEqual([
      "Intermittent monitoring went more than 2 hours without a documented review check once: Nov 16, 2026, 01:00 UTC (UTC) → Nov 16, 2026, 03:00 UTC (UTC) (2 h 0 min 1 s, from a review check to now (still running)). Intermittent codes need a real-time review at least every 2 hours (DOMAIN.md §2.3).",
    ]);
  });

  it("lists the first three gaps and counts the rest", () => {
    const suggestion = suggest([intermittent(0, 20 * h)], { reviewChecks: [at(5 * h), at(10 * h), at(15 * h)] });
    expect(suggestion.warnings.map((warning) => warning.message)).toEqual([
      "Intermittent monitoring went more than 2 hours without a documented review check 4 times: Nov 16, 2026, 00:00 UTC (UTC) → Nov 16, 2026, 05:00 UTC (UTC) (5 h 0 min 0 s, from the start of intermittent monitoring to the next check); Nov 16, 2026, 05:00 UTC (UTC) → Nov 16, 2026, 10:00 UTC (UTC) (5 h 0 min 0 s, from a review check to the next check); Nov 16, 2026, 10:00 UTC (UTC) → Nov 16, 2026, 15:00 UTC (UTC) (5 h 0 min 0 s, from a review check to the next check); and 1 more. Intermittent codes need a real-time review at least every 2 hours (DOMAIN.md §2.3).",
    ]);
  });

  it("does not ask for checks during continuous or unmonitored recording", () => {
    const suggestion = suggest([monitoring(0, 6 * h), monitoring(6 * h, 12 * h, { mode: "unmonitored" })]);
    expect(suggestion.warnings).toEqual([]);
  });
});

describe("warnings", () => {
  it("warns when a technologist's cap was exceeded, and lists each warning once in the contract's order", () => {
    const suggestion = suggest([monitoring(0, 3 * h, { mode: "intermittent", channels: null })], { capExceeded: true });
    expect(warningIds(suggestion)).toEqual(["review-check-gap", "technologist-cap-exceeded", "channels-not-recorded"]);
    expect(suggestion.warnings[1]?.message).toBe(
      "While this case was monitored, a technologist had more concurrent patients than the cap for the level of monitoring allows (DOMAIN.md §2.3: intermittent and continuous monitoring have a per-technologist patient cap); the monitored codes may not be supported for that time.",
    );
  });
});

describe("code descriptions", () => {
  it("describe 95700, 95705–95726 and 95999", () => {
    expect(Object.keys(cptCodeDescriptions).sort()).toEqual([
      "95700",
      "95705",
      "95706",
      "95707",
      "95708",
      "95709",
      "95710",
      "95711",
      "95712",
      "95713",
      "95714",
      "95715",
      "95716",
      "95717",
      "95718",
      "95719",
      "95720",
      "95721",
      "95722",
      "95723",
      "95724",
      "95725",
      "95726",
      "95999",
    ]);
    const suggestion = suggest([monitoring(0, 3 * h)]);
    expect(suggestion.lines[1]?.description).toBe(
      "EEG without video, technologist review and technical description, 2–12 h, continuous real-time monitoring",
    );
  });
});

describe("the recording timeline", () => {
  /** Second by second, the plain reading of DOMAIN.md §2.3: the oracle the sweep over starts and ends must match. */
  function secondBySecond(logs: readonly CptLog[], now: Date): Piece[] {
    const ranks = ["unmonitored", "intermittent", "continuous"] as const;
    const pieces: Piece[] = [];
    const monitoring = logs.filter((log) => log.activity === "monitoring");
    const seconds = (instant: Date) => Math.floor(instant.getTime() / 1000);
    const first = Math.min(...monitoring.map((log) => seconds(log.start)));
    const last = Math.max(...monitoring.map((log) => seconds(log.end ?? now)));
    for (let second = first; second < last; second += 1) {
      const covering = monitoring.filter((log) => seconds(log.start) <= second && second < seconds(log.end ?? now));
      const billable = covering.filter((log) => log.billable);
      if (billable.length === 0) continue;
      const mode = ranks[Math.max(...billable.map((log) => ranks.indexOf(log.mode)))] as Piece["mode"];
      const video = covering.some((log) => log.video);
      const previous = pieces.at(-1);
      if (previous && previous.end === second && previous.mode === mode && previous.video === video) previous.end += 1;
      else pieces.push({ start: second, end: second + 1, mode, video });
    }
    return pieces;
  }

  it("is the union of overlapping logs with the highest level and any video, as a second-by-second reading", () => {
    let seed = 20_261_127;
    const next = (limit: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % limit;
    };
    const modes = ["unmonitored", "intermittent", "continuous"] as const;
    const activities = ["monitoring", "monitoring", "monitoring", "setup"] as const;
    const now = at(500);
    for (let round = 0; round < 300; round += 1) {
      const logs: CptLog[] = Array.from({ length: 1 + next(12) }, () => {
        const start = next(480);
        const running = next(8) === 0;
        return {
          start: at(start),
          end: running ? null : at(start + next(120)),
          activity: activities[next(activities.length)] as CptLog["activity"],
          mode: modes[next(modes.length)] as CptLog["mode"],
          video: next(2) === 0,
          billable: next(4) !== 0,
          channels: null,
        };
      });
      if (!logs.some((log) => log.activity === "monitoring")) continue;
      const base = Math.floor(at(0).getTime() / 1000);
      const relative = (pieces: Piece[]) =>
        pieces.map((piece) => ({ ...piece, start: piece.start - base, end: piece.end - base }));
      expect(relative(recordingPieces(logs, now)), JSON.stringify(logs)).toEqual(relative(secondBySecond(logs, now)));
    }
  });
});

describe("measuring segments", () => {
  /** Every piece against every segment, as the measure was first written: the reference for the single pass. */
  const measuredByFullWalk = (cuts: { seconds: number }[], pieces: Piece[]) => {
    let from = 0;
    return cuts.map((cut) => {
      const to = from + cut.seconds;
      const modeSeconds = { unmonitored: 0, intermittent: 0, continuous: 0 };
      let videoSeconds = 0;
      let position = 0;
      for (const piece of pieces) {
        const overlap = Math.min(to, position + piece.end - piece.start) - Math.max(from, position);
        if (overlap > 0) {
          modeSeconds[piece.mode] += overlap;
          if (piece.video) videoSeconds += overlap;
        }
        position += piece.end - piece.start;
      }
      from = to;
      return { modeSeconds, videoSeconds };
    });
  };

  it("gives every segment of long, fragmented studies what a walk over all their pieces gives", () => {
    let seed = 20261130;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const modes = ["unmonitored", "intermittent", "continuous"] as const;
    for (let study = 0; study < 200; study += 1) {
      const pieces: Piece[] = [];
      let start = 0;
      const count = 1 + Math.floor(next() * 120);
      for (let index = 0; index < count; index += 1) {
        // Fractions of a second, whole hours (so pieces meet the segments' 24-h edges exactly) and half a second (so
        // one ends just past an edge), far shorter and far longer than a segment.
        const kind = next();
        const length =
          kind < 0.25
            ? 1 + next() * 600
            : kind < 0.5
              ? h * (1 + Math.floor(next() * 30))
              : kind < 0.6
                ? 0.5
                : next() * 30 * h;
        pieces.push({
          start,
          end: start + length,
          mode: modes[Math.floor(next() * 3)] ?? "continuous",
          video: next() < 0.7,
        });
        start += length + (next() < 0.5 ? next() * h : 0);
      }
      const recording = pieces.reduce((total, piece) => total + piece.end - piece.start, 0);
      const cuts = cutSegments(recording, defaults);
      const measured = measureSegments(cuts, pieces, defaults).map(({ modeSeconds, videoSeconds }) => ({
        modeSeconds,
        videoSeconds,
      }));
      expect(measured).toEqual(measuredByFullWalk(cuts, pieces));
    }
  });
});
