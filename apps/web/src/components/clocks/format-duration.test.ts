import { describe, expect, it } from "vitest";
import { countdownText, decimalMinutes, formatDuration } from "./format-duration";

describe("formatDuration", () => {
  it("shows seconds under an hour, so 75 s beside a 1-minute window never reads as 1 min", () => {
    expect(formatDuration(0)).toBe("0 s");
    expect(formatDuration(15)).toBe("15 s");
    expect(formatDuration(74.6)).toBe("1 min 15 s");
    expect(formatDuration(60)).toBe("1 min 00 s");
    expect(formatDuration(3599)).toBe("59 min 59 s");
  });

  it("rounds every part up: late by a moment is late by 1 s, an hour and a second is 1 h 01 min", () => {
    expect(formatDuration(0.001)).toBe("1 s");
    expect(formatDuration(3600)).toBe("1 h 00 min");
    expect(formatDuration(3601)).toBe("1 h 01 min");
    expect(formatDuration(26 * 3600 + 5 * 60)).toBe("1 d 2 h 05 min");
  });

  it("gives spreadsheets decimal minutes that never round a late second to 0", () => {
    expect(decimalMinutes(75)).toBe("1.25");
    expect(decimalMinutes(1)).toBe("0.02");
    expect(decimalMinutes(3600)).toBe("60");
  });

  it("counts a running clock down and up past its due time with the same words", () => {
    const due = Date.parse("2026-03-01T12:00:00Z");
    expect(countdownText("2026-03-01T12:00:00Z", due - 125 * 60_000)).toBe("2 h 05 min left");
    expect(countdownText("2026-03-01T12:00:00Z", due - 59 * 60_000 - 30_000)).toBe("59 min 30 s left");
    expect(countdownText("2026-03-01T12:00:00Z", due + 400)).toBe("overdue by 1 s");
    expect(countdownText("2026-03-01T12:00:00Z", due + 12 * 60_000)).toBe("overdue by 12 min 00 s");
  });
});
