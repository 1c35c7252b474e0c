import { describe, expect, it } from "vitest";
import { impedanceLevel } from "./impedance-levels";

describe("impedance levels", () => {
  it("is good below 5 kΩ, caution from 5 kΩ up to and including the threshold, flagged above it", () => {
    expect(impedanceLevel(0, 10)).toBe("good");
    expect(impedanceLevel(4.9, 10)).toBe("good");
    expect(impedanceLevel(5, 10)).toBe("caution");
    expect(impedanceLevel(10, 10)).toBe("caution");
    expect(impedanceLevel(10.1, 10)).toBe("flagged");
  });

  it("follows the protocol's threshold, not a fixed one", () => {
    expect(impedanceLevel(8, 7)).toBe("flagged");
    expect(impedanceLevel(8, 15)).toBe("caution");
    expect(impedanceLevel(15, 15)).toBe("caution");
    expect(impedanceLevel(15.5, 15)).toBe("flagged");
  });
});
