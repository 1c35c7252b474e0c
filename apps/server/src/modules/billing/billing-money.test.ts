import Big from "big.js";
import { describe, expect, it } from "vitest";
import {
  amountCentsFor,
  centsOf,
  formatHundredths,
  hoursFromSeconds,
  hundredthsFromSeconds,
  normalizeRate,
  rateForMonth,
  roundingNote,
  sumDecimals,
} from "./billing-money.js";

describe("hours from seconds", () => {
  it("rounds half-up to 2 decimals", () => {
    expect(hoursFromSeconds(5400)).toBe("1.50");
    expect(hoursFromSeconds(18)).toBe("0.01"); // 0.005
    expect(hoursFromSeconds(17)).toBe("0.00"); // 0.00472…
    expect(hoursFromSeconds(54)).toBe("0.02"); // exactly 0.015, which a binary float rounds down
    expect(hoursFromSeconds(7199)).toBe("2.00"); // 1.99972…
    expect(hoursFromSeconds(0)).toBe("0.00");
    expect(hoursFromSeconds(3_600_000)).toBe("1000.00");
  });

  it("refuses negative or fractional seconds", () => {
    expect(() => hoursFromSeconds(-1)).toThrow(RangeError);
    expect(() => hoursFromSeconds(1.5)).toThrow(RangeError);
  });
});

/** The amount of a line as statements compute it: its shown hours × the rate, in cents, as a decimal string. */
const amountFor = (hours: string, rate: string) =>
  formatHundredths(amountCentsFor(Number(centsOf(hours)), centsOf(rate)));

describe("amounts", () => {
  it("are hours × rate rounded half-up to the cent", () => {
    expect(amountFor("1.50", "0.05")).toBe("0.08"); // 0.075
    expect(amountFor("1.15", "1.50")).toBe("1.73"); // 1.725; 1.15 * 1.5 in binary floats is 1.7249999…
    expect(amountFor("0.01", "0.50")).toBe("0.01"); // 0.005
    expect(amountFor("0.01", "0.49")).toBe("0.00"); // 0.0049
    expect(amountFor("12.25", "125.00")).toBe("1531.25");
    expect(amountFor("0.00", "125.00")).toBe("0.00");
  });

  it("sum exactly", () => {
    expect(sumDecimals(["0.10", "0.20"])).toBe("0.30");
    expect(sumDecimals(["1531.25", "0.08", "99.99"])).toBe("1631.32");
    expect(sumDecimals([])).toBe("0.00");
  });
});

describe("rates", () => {
  it("are normalised to 2 decimals, never rounded", () => {
    expect(normalizeRate("125")).toBe("125.00");
    expect(normalizeRate("125.5")).toBe("125.50");
    expect(normalizeRate(" 125.50 ")).toBe("125.50");
    expect(normalizeRate("0.05")).toBe("0.05");
    expect(() => normalizeRate("125.505")).toThrow(RangeError);
    expect(() => normalizeRate("12,5")).toThrow(RangeError);
    expect(() => normalizeRate("-5")).toThrow(RangeError);
  });

  const rates = [
    { month: "2026-09", hourlyRate: "125.5" },
    { month: "2026-01", hourlyRate: "90.00" },
    { month: "2026-03", hourlyRate: "100.00" },
  ];

  it("apply the month's own rate", () => {
    expect(rateForMonth("2026-09", rates)).toEqual({ hourlyRate: "125.50", fromMonth: "2026-09", inherited: false });
  });

  it("inherit from the latest earlier month, never from a later one", () => {
    expect(rateForMonth("2026-11", rates)).toEqual({ hourlyRate: "125.50", fromMonth: "2026-09", inherited: true });
    expect(rateForMonth("2026-05", rates)).toEqual({ hourlyRate: "100.00", fromMonth: "2026-03", inherited: true });
    expect(rateForMonth("2027-01", rates)).toEqual({ hourlyRate: "125.50", fromMonth: "2026-09", inherited: true });
  });

  it("are missing (null) when no month up to this one has one", () => {
    expect(rateForMonth("2025-12", rates)).toBeNull();
    expect(rateForMonth("2026-11", [])).toBeNull();
  });
});

describe("the rounding note", () => {
  it("tells how statements are rounded", () => {
    expect(roundingNote).toBe(
      "Hours per case are the exact logged seconds rounded half-up to 2 decimals; each amount is those rounded hours × the hourly rate, rounded half-up to the cent; totals are the sums of the rounded lines.",
    );
  });
});

describe("hours and amounts in whole hundredths and cents", () => {
  it("equal the exact decimal arithmetic (big.js), at every stored rate width and up to 2^53", () => {
    let seed = 20_261_127;
    const next = (limit: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % limit;
    };
    const rates = ["0.00", "0.01", "95.00", "125.50", "199.99", "9999999999.99", "1.5", "7"];
    for (let round = 0; round < 2_000; round += 1) {
      const seconds = round < 100 ? round * 9 : next(3_000_000);
      const rate = rates[round % rates.length] as string;
      const hours = new Big(seconds).div(3600).round(2, Big.roundHalfUp);
      expect(hoursFromSeconds(seconds), `${seconds} s`).toBe(hours.toFixed(2));
      expect(
        formatHundredths(amountCentsFor(hundredthsFromSeconds(seconds), centsOf(rate))),
        `${seconds} s at ${rate}`,
      ).toBe(hours.times(rate).round(2, Big.roundHalfUp).toFixed(2));
    }
    expect(centsOf("125.5")).toBe(12_550n);
    expect(() => centsOf("1.005")).toThrow(RangeError);
  });
});
