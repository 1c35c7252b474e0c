import { describe, expect, it } from "vitest";
import { arrivalFocusPending, requestArrivalFocus } from "./arrival-focus";

describe("focus on arrival after sign-in", () => {
  it("stays asked for until the heading takes it", () => {
    requestArrivalFocus(1_000);
    expect(arrivalFocusPending({ now: 1_500 })).toBe(true);
    expect(arrivalFocusPending({ now: 2_000, consume: true })).toBe(true);
    expect(arrivalFocusPending({ now: 2_100 })).toBe(false);
  });

  it("is forgotten after a few seconds, so a later page never steals focus", () => {
    requestArrivalFocus(1_000);
    expect(arrivalFocusPending({ now: 12_000 })).toBe(false);
    expect(arrivalFocusPending({ now: 12_001 })).toBe(false);
  });
});
