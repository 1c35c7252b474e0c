import { describe, expect, it } from "vitest";
import {
  addMonths,
  clipSeconds,
  currentMonth,
  dayBuckets,
  monthBuckets,
  monthOf,
  monthsBetween,
  monthWindow,
  periodWindow,
  splitByMonth,
  weekBuckets,
} from "./billing-calendar.js";

const utc = (iso: string) => new Date(iso);
const hoursOf = (window: { start: Date; end: Date }) => (window.end.getTime() - window.start.getTime()) / 3_600_000;
const iso = (window: { start: Date; end: Date }) => [window.start.toISOString(), window.end.toISOString()];

describe("months are cut at local midnight in the client's zone", () => {
  it("November 2026 in Chicago runs from 05:00Z on the 1st (still CDT) to 06:00Z on 1 December (CST): 721 h", () => {
    const window = monthWindow("2026-11", "America/Chicago");
    expect(iso(window)).toEqual(["2026-11-01T05:00:00.000Z", "2026-12-01T06:00:00.000Z"]);
    expect(hoursOf(window)).toBe(721);
  });

  it("October 2026 in Berlin has 745 h (DST ends 25 Oct) and March 2026 has 743 h (DST starts 29 Mar)", () => {
    const october = monthWindow("2026-10", "Europe/Berlin");
    expect(iso(october)).toEqual(["2026-09-30T22:00:00.000Z", "2026-10-31T23:00:00.000Z"]);
    expect(hoursOf(october)).toBe(745);
    const march = monthWindow("2026-03", "Europe/Berlin");
    expect(iso(march)).toEqual(["2026-02-28T23:00:00.000Z", "2026-03-31T22:00:00.000Z"]);
    expect(hoursOf(march)).toBe(743);
  });

  it("follows a half-hour zone: November 2026 in Kolkata (+05:30) starts at 18:30Z on 31 October", () => {
    expect(iso(monthWindow("2026-11", "Asia/Kolkata"))).toEqual([
      "2026-10-31T18:30:00.000Z",
      "2026-11-30T18:30:00.000Z",
    ]);
    expect(monthOf(utc("2026-10-31T18:29:59.999Z"), "Asia/Kolkata")).toBe("2026-10");
    expect(monthOf(utc("2026-10-31T18:30:00Z"), "Asia/Kolkata")).toBe("2026-11");
  });

  it("follows southern-hemisphere DST: Auckland's April 2026 has 721 h (DST ends 5 Apr), September 719 h", () => {
    const april = monthWindow("2026-04", "Pacific/Auckland");
    expect(iso(april)).toEqual(["2026-03-31T11:00:00.000Z", "2026-04-30T12:00:00.000Z"]);
    expect(hoursOf(april)).toBe(721);
    const september = monthWindow("2026-09", "Pacific/Auckland");
    expect(iso(september)).toEqual(["2026-08-31T12:00:00.000Z", "2026-09-30T11:00:00.000Z"]);
    expect(hoursOf(september)).toBe(719);
  });

  it("is the plain calendar month in UTC", () => {
    expect(iso(monthWindow("2026-02", "UTC"))).toEqual(["2026-02-01T00:00:00.000Z", "2026-03-01T00:00:00.000Z"]);
  });

  it("names the current month in the zone: 11:00Z on 30 Nov is already 1 Dec in Auckland (+13)", () => {
    expect(currentMonth("Pacific/Auckland", utc("2026-11-30T10:59:59Z"))).toBe("2026-11");
    expect(currentMonth("Pacific/Auckland", utc("2026-11-30T11:00:00Z"))).toBe("2026-12");
    expect(currentMonth("UTC", utc("2026-11-30T11:00:00Z"))).toBe("2026-11");
  });

  it("refuses what is not a month", () => {
    expect(() => monthWindow("2026-13", "UTC")).toThrow(RangeError);
    expect(() => monthWindow("2026-11-05", "UTC")).toThrow(RangeError);
    expect(() => monthWindow("2026-11", "Not/A_Zone")).toThrow(RangeError);
  });
});

describe("month arithmetic", () => {
  it("adds and subtracts months across years", () => {
    expect(addMonths("2026-01", -1)).toBe("2025-12");
    expect(addMonths("2026-11", 14)).toBe("2028-01");
    expect(addMonths("2026-11", -11)).toBe("2025-12");
    expect(addMonths("2026-11", 0)).toBe("2026-11");
  });

  it("lists the months between two, both included, and none when backwards", () => {
    expect(monthsBetween("2025-11", "2026-02")).toEqual(["2025-11", "2025-12", "2026-01", "2026-02"]);
    expect(monthsBetween("2026-02", "2026-02")).toEqual(["2026-02"]);
    expect(monthsBetween("2026-03", "2026-02")).toEqual([]);
  });
});

describe("reporting periods and buckets", () => {
  it("runs from local midnight of the first day to local midnight after the last", () => {
    expect(iso(periodWindow("2026-11-01", "2026-11-30", "America/Chicago"))).toEqual([
      "2026-11-01T05:00:00.000Z",
      "2026-12-01T06:00:00.000Z",
    ]);
    expect(iso(periodWindow("2026-11-16", "2026-11-16", "UTC"))).toEqual([
      "2026-11-16T00:00:00.000Z",
      "2026-11-17T00:00:00.000Z",
    ]);
  });

  it("labels days and gives DST days their 25 or 23 hours", () => {
    const [day] = dayBuckets("2026-11-16", "2026-11-16", "UTC");
    expect(day).toEqual({
      key: "2026-11-16",
      label: "Mon 16 Nov 2026",
      start: utc("2026-11-16T00:00:00Z"),
      end: utc("2026-11-17T00:00:00Z"),
    });
    const autumn = dayBuckets("2026-10-24", "2026-10-26", "Europe/Berlin");
    expect(autumn.map((bucket) => [bucket.key, bucket.label, hoursOf(bucket)])).toEqual([
      ["2026-10-24", "Sat 24 Oct 2026", 24],
      ["2026-10-25", "Sun 25 Oct 2026", 25],
      ["2026-10-26", "Mon 26 Oct 2026", 24],
    ]);
    const [spring] = dayBuckets("2026-03-29", "2026-03-29", "Europe/Berlin");
    expect(spring && [spring.label, ...iso(spring), hoursOf(spring)]).toEqual([
      "Sun 29 Mar 2026",
      "2026-03-28T23:00:00.000Z",
      "2026-03-29T22:00:00.000Z",
      23,
    ]);
  });

  it("keys weeks by ISO week-year: Monday 29 Dec 2025 begins 2026-W01; the ends are clipped to the period", () => {
    expect(weekBuckets("2025-12-30", "2026-01-06", "UTC")).toEqual([
      {
        key: "2026-W01",
        label: "Week of 29 Dec 2025",
        start: utc("2025-12-30T00:00:00Z"),
        end: utc("2026-01-05T00:00:00Z"),
      },
      {
        key: "2026-W02",
        label: "Week of 5 Jan 2026",
        start: utc("2026-01-05T00:00:00Z"),
        end: utc("2026-01-07T00:00:00Z"),
      },
    ]);
  });

  it("has a week 53 in 2026 (the year starts on a Thursday) and keys 1–3 Jan 2027 to it", () => {
    expect(
      weekBuckets("2026-12-31", "2027-01-04", "UTC").map((bucket) => [bucket.key, bucket.label, ...iso(bucket)]),
    ).toEqual([
      ["2026-W53", "Week of 28 Dec 2026", "2026-12-31T00:00:00.000Z", "2027-01-04T00:00:00.000Z"],
      ["2027-W01", "Week of 4 Jan 2027", "2027-01-04T00:00:00.000Z", "2027-01-05T00:00:00.000Z"],
    ]);
  });

  it("cuts weeks at local midnight: the week of the Chicago fall-back has 169 h", () => {
    const [week] = weekBuckets("2026-10-26", "2026-11-01", "America/Chicago");
    expect(week && [week.key, ...iso(week), hoursOf(week)]).toEqual([
      "2026-W44",
      "2026-10-26T05:00:00.000Z",
      "2026-11-02T06:00:00.000Z",
      169,
    ]);
  });

  it("labels months and clips the first and last to the period", () => {
    expect(
      monthBuckets("2026-10-15", "2026-12-10", "America/Chicago").map((bucket) => [
        bucket.key,
        bucket.label,
        ...iso(bucket),
      ]),
    ).toEqual([
      ["2026-10", "October 2026", "2026-10-15T05:00:00.000Z", "2026-11-01T05:00:00.000Z"],
      ["2026-11", "November 2026", "2026-11-01T05:00:00.000Z", "2026-12-01T06:00:00.000Z"],
      ["2026-12", "December 2026", "2026-12-01T06:00:00.000Z", "2026-12-11T06:00:00.000Z"],
    ]);
  });
});

describe("clipping logs to windows", () => {
  const now = utc("2026-12-15T12:00:00Z");
  const november = monthWindow("2026-11", "UTC");

  it("counts whole seconds inside the window only", () => {
    const log = { start: utc("2026-10-31T22:00:00Z"), end: utc("2026-11-01T01:30:00Z") };
    expect(clipSeconds(log, november, now)).toBe(5400);
  });

  it("gives 0 for a log entirely outside, or one that ends exactly where the window starts", () => {
    expect(clipSeconds({ start: utc("2026-10-01T00:00:00Z"), end: utc("2026-10-02T00:00:00Z") }, november, now)).toBe(
      0,
    );
    expect(clipSeconds({ start: utc("2026-10-31T23:00:00Z"), end: utc("2026-11-01T00:00:00Z") }, november, now)).toBe(
      0,
    );
    expect(clipSeconds({ start: utc("2026-12-01T00:00:00Z"), end: null }, november, now)).toBe(0);
  });

  it("floors fractions of a second (1.999 s is 1 s)", () => {
    const log = { start: utc("2026-11-02T00:00:00.000Z"), end: utc("2026-11-02T00:00:01.999Z") };
    expect(clipSeconds(log, november, now)).toBe(1);
  });

  it("counts a running log up to now, and not at all before it starts", () => {
    const running = { start: utc("2026-11-30T20:00:00Z"), end: null };
    expect(clipSeconds(running, november, utc("2026-11-30T21:15:00Z"))).toBe(4500);
    expect(clipSeconds(running, november, utc("2026-11-30T19:00:00Z"))).toBe(0);
  });
});

describe("splitting a log by month", () => {
  it("splits 23:00–02:00 local across 30 Sep / 1 Oct 2026 in Chicago into 1 h and 2 h", () => {
    // 23:00 CDT = 04:00Z, 02:00 CDT = 07:00Z.
    const log = { start: utc("2026-10-01T04:00:00Z"), end: utc("2026-10-01T07:00:00Z") };
    expect(splitByMonth(log, "America/Chicago", utc("2026-12-01T00:00:00Z"))).toEqual([
      { month: "2026-09", seconds: 3600 },
      { month: "2026-10", seconds: 7200 },
    ]);
  });

  it("splits 23:00 31 Oct → 02:00 1 Nov 2026 Chicago into 1 h and 3 h: the clocks fall back at 02:00 that night", () => {
    // 23:00 CDT = 04:00Z; 02:00 on 1 Nov is after the fall-back, so CST: 08:00Z. 01:00–02:00 happens twice.
    const log = { start: utc("2026-11-01T04:00:00Z"), end: utc("2026-11-01T08:00:00Z") };
    expect(splitByMonth(log, "America/Chicago", utc("2026-12-01T00:00:00Z"))).toEqual([
      { month: "2026-10", seconds: 3600 },
      { month: "2026-11", seconds: 10800 },
    ]);
  });

  it("counts a running log up to now, across a month end", () => {
    const log = { start: utc("2026-11-30T20:00:00Z"), end: null };
    expect(splitByMonth(log, "UTC", utc("2026-12-01T03:00:00Z"))).toEqual([
      { month: "2026-11", seconds: 14400 },
      { month: "2026-12", seconds: 10800 },
    ]);
  });

  it("does not touch the next month when it ends exactly at its start, and touches none without duration", () => {
    const log = { start: utc("2026-11-30T22:00:00Z"), end: utc("2026-12-01T00:00:00Z") };
    expect(splitByMonth(log, "UTC", utc("2026-12-15T00:00:00Z"))).toEqual([{ month: "2026-11", seconds: 7200 }]);
    const future = { start: utc("2026-12-20T00:00:00Z"), end: null };
    expect(splitByMonth(future, "UTC", utc("2026-12-15T00:00:00Z"))).toEqual([]);
  });

  it("spans several months in Kolkata", () => {
    // 2026-10-31T18:00Z is 23:30 on 31 Oct in Kolkata; 2026-12-01T19:00Z is 00:30 on 2 Dec.
    const log = { start: utc("2026-10-31T18:00:00Z"), end: utc("2026-12-01T19:00:00Z") };
    expect(splitByMonth(log, "Asia/Kolkata", utc("2027-01-01T00:00:00Z"))).toEqual([
      { month: "2026-10", seconds: 1800 },
      { month: "2026-11", seconds: 30 * 86400 },
      { month: "2026-12", seconds: 86400 + 1800 },
    ]);
  });
});
