import { describe, expect, it } from "vitest";
import {
  formatDecimal,
  formatMoney,
  formatMoneyDifference,
  formatMonth,
  formatPeriod,
  formatRate,
} from "./billing-format";

describe("billing figures", () => {
  it("groups the whole part of a decimal string without turning it into a float", () => {
    expect(formatDecimal("0.50")).toBe("0.50");
    expect(formatDecimal("999.99")).toBe("999.99");
    expect(formatDecimal("1000.00")).toBe("1,000.00");
    expect(formatDecimal("1234567.05")).toBe("1,234,567.05");
    expect(formatDecimal("-1200.10")).toBe("-1,200.10");
    // Beyond what a double holds exactly: still every digit as sent.
    expect(formatDecimal("90071992547409931.01")).toBe("90,071,992,547,409,931.01");
  });

  it("formats money for the reader's locale in the currency the server names, from the decimal string", () => {
    expect(formatMoney(null, "USD")).toBe("—");
    expect(formatMoney("1234567.05", "USD")).toBe("$1,234,567.05");
    expect(formatMoney("0.50", "EUR")).toBe("€0.50");
    expect(formatMoney("-1200.10", "GBP")).toBe("-£1,200.10");
    // Beyond what a double holds exactly: every digit as sent (Intl formats the string, not a float).
    expect(formatMoney("90071992547409931.01", "USD")).toBe("$90,071,992,547,409,931.01");
    // Intl puts a no-break space between a code and the figure.
    expect(formatRate("137.50", "CHF")).toBe("CHF\u00a0137.50 per hour");
    expect(formatMoneyDifference("12.00", "USD")).toBe("+$12.00");
    expect(formatMoneyDifference("-3.50", "USD")).toBe("-$3.50");
    expect(formatMoneyDifference("0.00", "USD")).toBe("$0.00");
  });

  it("names months and a statement's period in the client's zone, the zone named", () => {
    expect(formatMonth("2026-11")).toBe("November 2026");
    expect(formatMonth("2027-01")).toBe("January 2027");
    expect(formatPeriod("2026-11-01T04:00:00.000Z", "2026-12-01T05:00:00.000Z", "America/New_York")).toBe(
      "Nov 1, 2026, 00:00 EDT to Dec 1, 2026, 00:00 EST (America/New_York)",
    );
  });
});
