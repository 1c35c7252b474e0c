import { describe, expect, it } from "vitest";
import {
  describeRange,
  describeSpread,
  interleavingOrder,
  interleavingSchedule,
  median,
  meetsByMedian,
  spreadOf,
} from "./rounds.js";

describe("median and spread of the rounds", () => {
  it("takes the middle round of an odd count whatever the order they were measured in", () => {
    expect(median([0.8, 0.61, 0.74, 0.7, 0.95])).toBe(0.74);
  });

  it("takes the mean of the two middle rounds of an even count", () => {
    expect(median([30, 10, 40, 20])).toBe(25);
  });

  it("has no median without a round", () => {
    expect(median([])).toBeNaN();
    expect(spreadOf([])).toBeUndefined();
  });

  it("spans the lowest and highest round and keeps the rounds in their order", () => {
    expect(spreadOf([12, 9, 31, 10, 11])).toEqual({ median: 11, min: 9, max: 31, rounds: [12, 9, 31, 10, 11] });
  });

  it("leaves out the rounds that measured nothing", () => {
    expect(spreadOf([3, undefined, 5, null, Number.NaN, 4])).toEqual({ median: 4, min: 3, max: 5, rounds: [3, 5, 4] });
  });

  it("prints the median then the lowest and highest round", () => {
    const spread = spreadOf([0.73, 0.79, 0.85]);
    const percent = (share: number) => `${Math.round(share * 100)}%`;
    expect(spread && describeSpread(spread, percent)).toBe("79% (73%–85%, 3 rounds)");
    expect(spread && describeRange(spread, percent)).toBe("73%–85%");
  });

  it("says a single round is a single round, with no range", () => {
    const spread = spreadOf([42]);
    expect(spread && describeSpread(spread, (value) => `${value} ms`)).toBe("42 ms (1 round)");
    expect(spread && describeRange(spread, String)).toBe("–");
  });
});

describe("a target judged by the median", () => {
  it("passes a share whose median meets it though two rounds fall below", () => {
    const share = spreadOf([0.66, 0.72, 0.75, 0.69, 0.8]);
    expect(share && meetsByMedian(share, 0.7, "at-least")).toBe(true);
  });

  it("misses a share whose median falls below though its best round meets it", () => {
    const share = spreadOf([0.62, 0.68, 0.75, 0.66, 0.69]);
    expect(share && meetsByMedian(share, 0.7, "at-least")).toBe(false);
  });

  it("holds a ceiling to the median, not to the worst round", () => {
    const p99 = spreadOf([8, 47, 9, 12, 10]);
    expect(p99 && meetsByMedian(p99, 25, "at-most")).toBe(true);
    const slow = spreadOf([26, 47, 9, 30, 10]);
    expect(slow && meetsByMedian(slow, 25, "at-most")).toBe(false);
  });

  it("counts a median exactly at the limit as met", () => {
    const ratio = spreadOf([2.9, 3, 3.1]);
    expect(ratio && meetsByMedian(ratio, 3, "at-most")).toBe(true);
    expect(ratio && meetsByMedian(ratio, 3, "at-least")).toBe(true);
  });
});

describe("the interleaving order", () => {
  it("runs two servers in both orders in every two rounds: A B, B A, B A, A B", () => {
    expect(interleavingSchedule(["vigil", "baseline"], 4)).toEqual([
      ["vigil", "baseline"],
      ["baseline", "vigil"],
      ["baseline", "vigil"],
      ["vigil", "baseline"],
    ]);
  });

  it("runs every pair of four servers in both orders in each two rounds", () => {
    const schedule = interleavingSchedule(["A", "B", "C", "D"], 8);
    expect(schedule.map((order) => order.join(""))).toEqual([
      "ABCD",
      "DCBA",
      "BCDA",
      "ADCB",
      "CDAB",
      "BADC",
      "DABC",
      "CBAD",
    ]);
    for (let round = 0; round < 8; round += 2) {
      for (const [first, second] of [
        ["A", "B"],
        ["A", "C"],
        ["A", "D"],
        ["B", "C"],
        ["B", "D"],
        ["C", "D"],
      ] as const) {
        const inOrder = (order: string[]) => order.indexOf(first) < order.indexOf(second);
        expect(inOrder(schedule[round] as string[])).not.toBe(inOrder(schedule[round + 1] as string[]));
      }
    }
  });

  it("lets each of four servers go first twice in eight rounds", () => {
    const firsts = interleavingSchedule(["A", "B", "C", "D"], 8).map((order) => order[0]);
    for (const side of ["A", "B", "C", "D"]) expect(firsts.filter((first) => first === side)).toHaveLength(2);
  });

  it("runs every server exactly once in each round", () => {
    for (let round = 0; round < 7; round++) {
      expect([...interleavingOrder(["A", "B", "C"], round)].sort()).toEqual(["A", "B", "C"]);
    }
  });

  it("has nothing to order without servers", () => {
    expect(interleavingOrder([], 3)).toEqual([]);
  });
});
