import { screen } from "@testing-library/react";
import type { TimeLogItem, TimeLogList } from "@vigil/contract";
import { describe, expect, it } from "vitest";
import { caseId, itemFields, nora, renderRecords, taylor, testCase, writable } from "../../testing/render-records";
import { TimeLogItemBody, TimeLogSummary } from "./time-log-item";

const caseItem = testCase();

function log(overrides: Partial<TimeLogItem> = {}): TimeLogItem {
  return {
    ...itemFields("5d1e2f3a-0000-4000-8000-000000000301"),
    kind: "time-log",
    data: {
      activity: "monitoring",
      mode: "continuous",
      video: true,
      startedAt: "2026-11-22T14:14:00.000Z",
      endedAt: "2026-11-22T16:19:00.000Z",
      billable: true,
      channels: 21,
      notes: "",
    },
    technologist: taylor,
    running: false,
    durationMinutes: 125,
    concurrentPeak: 3,
    cap: 4,
    overCap: false,
    ...overrides,
  };
}

describe("time log", () => {
  it("shows whose segment it is, its times in the client's zone, duration and patients against the cap", async () => {
    renderRecords(<TimeLogItemBody item={log()} caseItem={caseItem} />);
    expect(await screen.findByText("Taylor Technologist")).toBeTruthy();
    const times = screen.getByText(
      (_, element) => element?.tagName === "P" && /^Nov 22/.test(element.textContent ?? ""),
    );
    expect(times.textContent).toBe(
      "Nov 22, 2026, 09:14 EST (America/New_York) – Nov 22, 2026, 11:19 EST (America/New_York) · 2 h 05 min · 21 channels",
    );
    expect(screen.getByText("At most 3 of 4 continuous patients at once")).toBeTruthy();
    expect(screen.getByText("Video")).toBeTruthy();
    expect(screen.getByText("Billable")).toBeTruthy();
    expect(screen.queryByText("Running")).toBeNull();
    expect(screen.queryByText(/Over the cap/)).toBeNull();
  });

  it("warns when the technologist had more patients than the cap, and marks a running log", async () => {
    renderRecords(
      <TimeLogItemBody
        item={log({
          running: true,
          concurrentPeak: 5,
          overCap: true,
          data: { ...log().data, endedAt: null },
        })}
        caseItem={caseItem}
      />,
    );
    expect(await screen.findByText("Running")).toBeTruthy();
    expect(screen.getByText(/running · 2 h 05 min so far/)).toBeTruthy();
    expect(
      screen.getByText(/Over the cap: Taylor Technologist had 5 patients under continuous monitoring/),
    ).toBeTruthy();
  });

  it("raises the intermittent review check when 2 h have passed, and shows load against caps and billable time", async () => {
    const list: TimeLogList = {
      caseId,
      stage: "monitoring",
      write: writable,
      items: [],
      total: 0,
      limit: 50,
      offset: 0,
      summary: {
        runningMine: null,
        caps: { intermittent: 12, continuous: 4 },
        technologists: [
          { technologist: taylor, intermittent: 3, continuous: 0, overCap: false },
          { technologist: nora, intermittent: 0, continuous: 5, overCap: true },
        ],
        reviewCheck: {
          required: true,
          lastAt: "2026-11-22T14:14:00.000Z",
          dueAt: "2026-11-22T16:14:00.000Z",
          overdue: true,
        },
        billableMinutes: 185,
      },
    };
    renderRecords(<TimeLogSummary list={list} caseItem={caseItem} />);
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Review check overdue");
    expect(alert.textContent).toContain("due Nov 22, 2026, 11:14 EST");
    expect(screen.getByText("Taylor Technologist: 3 of 12 intermittent, 0 of 4 continuous")).toBeTruthy();
    expect(screen.getByText("Nora Night: 0 of 12 intermittent, 5 of 4 continuous")).toBeTruthy();
    expect(screen.getAllByText("Over cap")).toHaveLength(1);
    expect(screen.getByText("Billable time: 3 h 05 min")).toBeTruthy();
  });
});
