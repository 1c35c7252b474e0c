import { describe, expect, it } from "vitest";
import { formatInstantInZone } from "./time-in-zone.js";

describe("formatInstantInZone", () => {
  it("names the time in the client's zone with the zone's name at that instant", () => {
    expect(formatInstantInZone("2026-11-22T15:14:00Z", "America/New_York")).toBe(
      "Nov 22, 2026, 10:14 EST (America/New_York)",
    );
    expect(formatInstantInZone(new Date("2026-07-22T15:14:00Z"), "America/New_York")).toBe(
      "Jul 22, 2026, 11:14 EDT (America/New_York)",
    );
  });

  it("says the time in UTC for a zone it does not know, and leaves what is not a time as it is", () => {
    expect(formatInstantInZone("2026-11-22T15:14:00Z", "Mars/Olympus")).toBe("Nov 22, 2026, 15:14 UTC (UTC)");
    expect(formatInstantInZone("not a time", "UTC")).toBe("not a time");
  });
});
