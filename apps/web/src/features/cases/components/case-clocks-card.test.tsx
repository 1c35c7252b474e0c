import { screen, within } from "@testing-library/react";
import type { ServiceClock } from "@vigil/contract";
import { describe, expect, it } from "vitest";
import { envelope } from "../../../test/fake-server";
import { caseId, renderCaseScreen, technologistSub, testCase } from "../testing/render-case-screen";
import { clockStateNow } from "./case-clocks-card";

const caseApi = `/api/continuous-monitoring/cases/${caseId}`;
const minute = 60_000;

function clock(overrides: Partial<ServiceClock>): ServiceClock {
  const now = Date.now();
  return {
    kind: "impedance-check",
    caseId,
    startedAt: new Date(now - 13 * 60 * minute).toISOString(),
    dueSoonAt: new Date(now - 4 * 60 * minute).toISOString(),
    dueAt: new Date(now - 61 * minute).toISOString(),
    stoppedAt: null,
    windowMinutes: 720,
    state: "overdue",
    owner: { kind: "user", user: { sub: technologistSub, username: "technologist", name: "Taylor Technologist" } },
    ...overrides,
  };
}

describe("the case's service clocks", () => {
  it("lists each promise with its state, how long is left or overdue, and who takes the next step", async () => {
    const now = Date.now();
    const clocks = [
      clock({}),
      clock({
        kind: "stat-acknowledgement",
        startedAt: new Date(now - 10 * minute).toISOString(),
        dueSoonAt: new Date(now + 35 * minute).toISOString(),
        dueAt: new Date(now + 50 * minute + 30_000).toISOString(),
        windowMinutes: 60,
        state: "ok",
        owner: { kind: "coordinators" },
      }),
    ];
    renderCaseScreen(`/continuous-monitoring/cases/monitoring/${caseId}/overview`, {
      routes: {
        [`GET ${caseApi}`]: () => envelope(testCase({ stage: "monitoring", priority: "stat" })),
        [`GET ${caseApi}/clocks`]: () => envelope({ caseId, asOf: new Date().toISOString(), clocks }),
      },
    });

    const table = await screen.findByRole("table", { name: "Service clocks" });
    const rows = within(table).getAllByRole("row");
    expect(within(rows[1] as HTMLElement).getByText("Impedance check")).toBeTruthy();
    expect(within(rows[1] as HTMLElement).getByText("Overdue")).toBeTruthy();
    expect(within(rows[1] as HTMLElement).getByText(/^overdue by 1 h 0[12] min$/)).toBeTruthy();
    expect(within(rows[1] as HTMLElement).getByText("Taylor Technologist")).toBeTruthy();
    expect(within(rows[2] as HTMLElement).getByText("STAT case taken by a reviewer")).toBeTruthy();
    expect(within(rows[2] as HTMLElement).getByText("On time")).toBeTruthy();
    expect(within(rows[2] as HTMLElement).getByText(/^50 min (29|30) s left$/)).toBeTruthy();
    expect(within(rows[2] as HTMLElement).getByText("Coordinators")).toBeTruthy();
  });

  it("ages a running clock on screen: ok, then due soon, then overdue after its due time", () => {
    const running = clock({
      dueSoonAt: "2026-03-01T18:00:00.000Z",
      dueAt: "2026-03-02T00:00:00.000Z",
      state: "ok",
    });
    expect(clockStateNow(running, Date.parse("2026-03-01T17:59:59Z"))).toBe("ok");
    expect(clockStateNow(running, Date.parse("2026-03-01T18:00:00Z"))).toBe("due-soon");
    expect(clockStateNow(running, Date.parse("2026-03-02T00:00:00Z"))).toBe("due-soon");
    expect(clockStateNow(running, Date.parse("2026-03-02T00:00:01Z"))).toBe("overdue");
    // A stopped clock keeps the server's verdict.
    expect(clockStateNow({ ...running, stoppedAt: "2026-03-01T12:00:00.000Z", state: "met" }, Date.now())).toBe("met");
  });

  it("says how long a stopped clock took and, when late, by how much, to the second under an hour", async () => {
    const raised = Date.parse("2026-03-01T11:00:00Z");
    const clocks = [
      clock({
        kind: "critical-notification",
        startedAt: new Date(raised).toISOString(),
        dueSoonAt: new Date(raised + 45_000).toISOString(),
        dueAt: new Date(raised + minute).toISOString(),
        // A 1-minute window acknowledged after 74.6 s: late, though both instants read 11:01.
        stoppedAt: new Date(raised + 74_600).toISOString(),
        windowMinutes: 1,
        state: "missed",
      }),
    ];
    renderCaseScreen(`/continuous-monitoring/cases/monitoring/${caseId}/overview`, {
      routes: {
        [`GET ${caseApi}`]: () => envelope(testCase({ stage: "monitoring" })),
        [`GET ${caseApi}/clocks`]: () => envelope({ caseId, asOf: new Date().toISOString(), clocks }),
      },
    });
    const table = await screen.findByRole("table", { name: "Service clocks" });
    const row = within(table).getAllByRole("row")[1] as HTMLElement;
    expect(within(row).getByText("Missed")).toBeTruthy();
    expect(row.textContent).toContain("took 1 min 15 s, late by 15 s");
  });
});
