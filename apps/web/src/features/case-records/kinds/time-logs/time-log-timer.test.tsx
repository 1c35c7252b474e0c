import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { TimeLogItem, TimeLogList } from "@vigil/contract";
import { afterEach, describe, expect, it, vi } from "vitest";
import { envelope, errorEnvelope } from "../../../../test/fake-server";
import {
  caseId,
  itemFields,
  jsonBody,
  recordApi,
  renderRecords,
  taylor,
  testCase,
  writable,
} from "../../testing/render-records";
import { TimeLogTimer } from "./time-log-timer";

const caseItem = testCase({ hasVideo: true });

function runningLog(startedAt: string): TimeLogItem {
  return {
    ...itemFields("5d1e2f3a-0000-4000-8000-000000000201"),
    kind: "time-log",
    data: {
      activity: "monitoring",
      mode: "continuous",
      video: true,
      startedAt,
      endedAt: null,
      billable: true,
      channels: null,
      notes: "",
    },
    technologist: taylor,
    running: true,
    durationMinutes: 0,
    concurrentPeak: 1,
    cap: 4,
    overCap: false,
  };
}

function timeLogList(runningMine: TimeLogItem | null, write = writable): TimeLogList {
  return {
    caseId,
    stage: "monitoring",
    write,
    items: runningMine ? [runningMine] : [],
    total: runningMine ? 1 : 0,
    limit: 50,
    offset: 0,
    summary: {
      runningMine,
      caps: { intermittent: 12, continuous: 4 },
      technologists: [],
      reviewCheck: { required: false, lastAt: null, dueAt: null, overdue: false },
      billableMinutes: 0,
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("time-log timer", () => {
  it("starts a log now with the chosen activity, mode, video and billability", async () => {
    const user = userEvent.setup();
    const sent: Record<string, unknown>[] = [];
    const { calls } = renderRecords(<TimeLogTimer list={timeLogList(null)} caseItem={caseItem} />, {
      routes: {
        [`POST ${recordApi("time-logs")}`]: async (request) => {
          sent.push(await jsonBody(request));
          return envelope(runningLog(new Date().toISOString()), { status: 201 });
        },
      },
    });
    const before = Date.now();
    await user.click(await screen.findByRole("button", { name: "Start timer" }));
    const dialog = await screen.findByRole("dialog", { name: "Start a time log" });
    await user.selectOptions(within(dialog).getByLabelText("Activity"), "setup");
    await user.selectOptions(within(dialog).getByLabelText("Monitoring mode"), "intermittent");
    await user.click(within(dialog).getByLabelText("Video recorded"));
    await user.click(within(dialog).getByRole("button", { name: "Start timer" }));

    await waitFor(() => expect(sent).toHaveLength(1));
    const body = sent[0] as Record<string, unknown>;
    expect(body).toMatchObject({
      activity: "setup",
      mode: "intermittent",
      video: false,
      billable: true,
      endedAt: null,
    });
    const startedAt = Date.parse(String(body.startedAt));
    expect(startedAt).toBeGreaterThanOrEqual(before - 1000);
    expect(startedAt).toBeLessThanOrEqual(Date.now());
    expect(calls.filter((call) => call.method === "POST")).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("closes on Escape while nothing was chosen, and asks first once a choice was changed", async () => {
    const user = userEvent.setup();
    renderRecords(<TimeLogTimer list={timeLogList(null)} caseItem={caseItem} />);
    await user.click(await screen.findByRole("button", { name: "Start timer" }));
    await screen.findByRole("dialog", { name: "Start a time log" });
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryAllByRole("dialog")).toEqual([]));

    await user.click(screen.getByRole("button", { name: "Start timer" }));
    const dialog = await screen.findByRole("dialog", { name: "Start a time log" });
    await user.selectOptions(within(dialog).getByLabelText("Activity"), "setup");
    await user.keyboard("{Escape}");
    expect(await screen.findByRole("dialog", { name: "Discard your changes?" })).toBeInstanceOf(HTMLElement);
  });

  it("shows the server's words when it refuses an overlapping log", async () => {
    const user = userEvent.setup();
    renderRecords(<TimeLogTimer list={timeLogList(null)} caseItem={caseItem} />, {
      routes: {
        [`POST ${recordApi("time-logs")}`]: () =>
          errorEnvelope(409, "conflict", "You already have a time log running from 02:10 on case CM-2026-000099."),
      },
    });
    await user.click(await screen.findByRole("button", { name: "Start timer" }));
    const dialog = await screen.findByRole("dialog");
    await user.click(within(dialog).getByRole("button", { name: "Start timer" }));
    const alert = await within(dialog).findByRole("alert");
    expect(alert.textContent).toBe(
      "The timer was not started: You already have a time log running from 02:10 on case CM-2026-000099.",
    );
    expect(screen.getByRole("dialog")).toBeTruthy();
  });

  it("shows the running log's elapsed time, ticking", async () => {
    vi.useFakeTimers({ toFake: ["Date", "setInterval", "clearInterval"] });
    vi.setSystemTime(new Date("2026-11-22T15:19:09.000Z"));
    renderRecords(<TimeLogTimer list={timeLogList(runningLog("2026-11-22T14:15:00.000Z"))} caseItem={caseItem} />);
    const timer = screen.getByRole("timer");
    expect(timer.textContent).toBe("1:04:09");
    expect(timer.getAttribute("aria-label")).toBe("Elapsed 1 hour 4 minutes");
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    expect(screen.getByRole("timer").textContent).toBe("1:04:11");
    expect(screen.queryByRole("button", { name: "Start timer" })).toBeNull();
    expect(screen.getByRole("button", { name: "Stop timer" })).toBeTruthy();
  });

  it("clocks the caller's latest log out", async () => {
    const user = userEvent.setup();
    const sent: Record<string, unknown>[] = [];
    const startedAt = new Date(Date.now() - 3_600_000).toISOString();
    renderRecords(<TimeLogTimer list={timeLogList(runningLog(startedAt))} caseItem={caseItem} />, {
      routes: {
        [`POST ${recordApi("time-logs")}/latest/revisions`]: async (request) => {
          sent.push(await jsonBody(request));
          const stopped = runningLog(startedAt);
          return envelope(
            { ...stopped, running: false, revision: 2, data: { ...stopped.data, endedAt: new Date().toISOString() } },
            { status: 201 },
          );
        },
      },
    });
    await user.click(await screen.findByRole("button", { name: "Stop timer" }));
    await waitFor(() => expect(sent).toEqual([{ change: "clock-out" }]));
  });

  it("offers no timer where time logs cannot be written", async () => {
    renderRecords(
      <>
        <TimeLogTimer
          list={timeLogList(null, { allowed: false, reason: "Time logs can be changed only…", reasonRequired: false })}
          caseItem={caseItem}
        />
        <p>rendered</p>
      </>,
    );
    await screen.findByText("rendered");
    expect(screen.queryByRole("button", { name: "Start timer" })).toBeNull();
  });
});
