import { describe, expect, it } from "vitest";
import { countOf } from "./count-of";

describe("countOf", () => {
  it("agrees the noun with the count", () => {
    expect(countOf(1, "case")).toBe("1 case");
    expect(countOf(0, "case")).toBe("0 cases");
    expect(countOf(2, "time log")).toBe("2 time logs");
    expect(countOf(3, "entry", "entries")).toBe("3 entries");
  });
});
