import { rangeMessages } from "@vigil/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing/test-app.js";

let harness: TestApp;
let token: string;

beforeAll(async () => {
  harness = await createTestApp();
  token = await harness.tokenFor("ranger", ["admin"]);
});
afterAll(() => harness.close());

function get(url: string) {
  return harness.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${token}` } });
}

/** Every list whose query takes a from/to range: its start field, and both ends in the wrong order and in order. */
const ranges = [
  {
    list: "a case queue",
    path: "/api/continuous-monitoring/cases/intake",
    start: "createdFrom",
    backwards: "createdFrom=2026-11-20T00:00:00Z&createdTo=2026-11-01T23:59:59Z",
    inOrder: "createdFrom=2026-11-01T00:00:00Z&createdTo=2026-11-01T00:00:00Z",
    message: rangeMessages.endIncluded,
  },
  {
    list: "the audit log (its end excluded)",
    path: "/api/audit",
    start: "from",
    backwards: "from=2026-11-01T00:00:00Z&to=2026-11-01T00:00:00Z",
    inOrder: "from=2026-11-01T00:00:00Z&to=2026-11-01T00:00:01Z",
    message: rangeMessages.endExcluded,
  },
  {
    list: "the billing overview",
    path: "/api/billing/continuous-monitoring",
    start: "from",
    backwards: "from=2026-11&to=2026-01",
    inOrder: "from=2026-11&to=2026-11",
    message: rangeMessages.endIncluded,
  },
  {
    list: "the billable-hours report",
    path: "/api/reporting/continuous-monitoring/billable-hours",
    start: "from",
    backwards: "from=2026-11-20&to=2026-11-01",
    inOrder: "from=2026-11-01&to=2026-11-01",
    message: rangeMessages.endIncluded,
  },
];

describe("date ranges in list queries", () => {
  it.each(ranges)("$list refuses a range in the wrong order with a 400 naming its start", async (range) => {
    const refused = await get(`${range.path}?${range.backwards}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.details.issues).toEqual([
      { path: `querystring.${range.start}`, message: range.message },
    ]);
    const answered = await get(`${range.path}?${range.inOrder}`);
    expect(answered.statusCode, answered.body).toBe(200);
  });

  it("refuses a billing overview that starts after the month it ends in by default, in the same words", async () => {
    const refused = await get("/api/billing/continuous-monitoring?from=2199-01");
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.details.issues).toEqual([
      { path: "querystring.from", message: rangeMessages.endIncluded },
    ]);
  });
});
