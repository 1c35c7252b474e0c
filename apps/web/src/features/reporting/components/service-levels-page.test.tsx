import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ServiceLevelPeople, ServiceLevelReport } from "@vigil/contract";
import { afterEach, describe, expect, it, vi } from "vitest";
import { envelope } from "../../../test/fake-server";
import { clientId, clientOptions, parseCsv, readBlob, renderReportingScreen } from "../testing/render-reporting-screen";

const reportPath = `/api/reporting/service-levels/${clientId}/2026-11`;
const pickers = { "GET /api/continuous-monitoring/clients/ids": () => envelope(clientOptions) };

function testReport(overrides: Partial<ServiceLevelReport> = {}): ServiceLevelReport {
  const months = Array.from(
    { length: 12 },
    (_, index) => `${index < 2 ? 2025 : 2026}-${String(((index + 10) % 12) + 1).padStart(2, "0")}`,
  );
  return {
    clientId,
    clientName: "St. Mary's Regional Medical Center",
    clientCode: "SMRMC",
    timeZone: "America/New_York",
    month: "2026-11",
    periodStart: "2026-11-01T04:00:00.000Z",
    periodEnd: "2026-12-01T05:00:00.000Z",
    asOf: "2026-12-02T15:00:00.000Z",
    kinds: [
      {
        kind: "stat-acknowledgement",
        kept: 3,
        missed: 1,
        pending: 0,
        takenSeconds: { p50: 20 * 60, p90: 75 * 60, max: 75 * 60 },
        lateSeconds: { p50: 15 * 60, p90: 15 * 60, max: 15 * 60 },
      },
      {
        kind: "impedance-check",
        kept: 40,
        missed: 0,
        pending: 0,
        takenSeconds: { p50: 600 * 60, p90: 700 * 60, max: 720 * 60 },
        lateSeconds: null,
      },
      { kind: "intermittent-review", kept: 0, missed: 0, pending: 0, takenSeconds: null, lateSeconds: null },
      {
        kind: "review-turnaround",
        kept: 5,
        missed: 1,
        pending: 1,
        takenSeconds: { p50: 240 * 60, p90: 600 * 60, max: 600 * 60 },
        lateSeconds: { p50: 125 * 60, p90: 125 * 60, max: 125 * 60 },
      },
      {
        kind: "critical-notification",
        kept: 2,
        missed: 2,
        pending: 0,
        // A 1-minute window acknowledged after 74.6 s: 75 s taken, late by 15 s.
        takenSeconds: { p50: 75, p90: 50 * 60, max: 50 * 60 },
        lateSeconds: { p50: 15, p90: 95 * 60, max: 95 * 60 },
      },
    ],
    breaches: [
      {
        caseId: "4f1c2b3a-0d9e-4c8b-8a7f-6e5d4c3b2a10",
        caseNumber: "CM-2026-000123",
        kind: "stat-acknowledgement",
        startedAt: "2026-11-03T14:00:00.000Z",
        dueAt: "2026-11-03T15:00:00.000Z",
        stoppedAt: "2026-11-03T15:15:00.000Z",
        end: "stopped",
        lateSeconds: 15 * 60,
      },
      {
        caseId: "4f1c2b3a-0d9e-4c8b-8a7f-6e5d4c3b2a11",
        caseNumber: "CM-2026-000150",
        kind: "review-turnaround",
        startedAt: "2026-11-20T10:00:00.000Z",
        dueAt: "2026-11-20T18:00:00.000Z",
        stoppedAt: "2026-11-20T20:05:00.000Z",
        end: "stopped",
        lateSeconds: 125 * 60,
      },
    ],
    series: months.map((month, index) => ({
      month,
      kinds: [
        { kind: "stat-acknowledgement", kept: index === 11 ? 3 : 0, missed: index === 11 ? 1 : 0 },
        { kind: "impedance-check", kept: index === 11 ? 40 : 10, missed: 0 },
        { kind: "intermittent-review", kept: 0, missed: 0 },
        { kind: "review-turnaround", kept: 5, missed: index === 11 ? 1 : 0 },
        { kind: "critical-notification", kept: index === 11 ? 2 : 0, missed: index === 11 ? 2 : 0 },
      ],
    })),
    criticalFindings: {
      count: 5,
      acknowledgedInTime: 2,
      acknowledgedLate: 1,
      notAcknowledged: 1,
      pending: 0,
      cancelled: 1,
      acknowledgementSeconds: { p50: 75, p90: 50 * 60, max: 50 * 60 },
      onsetToRaisedSecondsP50: 18 * 60,
      raisedToNotifiedSecondsP50: null,
      missed: [
        {
          findingId: "9a1c2b3a-0d9e-4c8b-8a7f-6e5d4c3b2a01",
          caseId: "4f1c2b3a-0d9e-4c8b-8a7f-6e5d4c3b2a12",
          caseNumber: "CM-2026-000131",
          kind: "electrographic-status-epilepticus",
          raisedAt: "2026-11-07T02:10:00.000Z",
          dueAt: "2026-11-07T02:11:00.000Z",
          acknowledgedAt: "2026-11-07T02:11:14.600Z",
          lateSeconds: 15,
        },
        {
          findingId: "9a1c2b3a-0d9e-4c8b-8a7f-6e5d4c3b2a02",
          caseId: "4f1c2b3a-0d9e-4c8b-8a7f-6e5d4c3b2a13",
          caseNumber: "CM-2026-000140",
          kind: "other-urgent",
          raisedAt: "2026-11-30T23:00:00.000Z",
          dueAt: "2026-11-30T23:30:00.000Z",
          acknowledgedAt: null,
          lateSeconds: 95 * 60,
        },
      ],
    },
    ...overrides,
  };
}

const people: ServiceLevelPeople = {
  clientId,
  month: "2026-11",
  asOf: "2026-12-02T15:00:00.000Z",
  people: [
    {
      role: "reviewer",
      person: { sub: null, username: "rita", name: "Rita Reviewer" },
      kinds: [
        { kind: "stat-acknowledgement", kept: 3, missed: 1 },
        { kind: "review-turnaround", kept: 5, missed: 1 },
      ],
      kept: 8,
      missed: 2,
    },
  ],
};

function cells(table: HTMLElement): string[][] {
  return within(table)
    .getAllByRole("row")
    .map((tableRow) => [...tableRow.querySelectorAll("th, td")].map((cell) => cell.textContent ?? ""));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("service levels page", () => {
  it("shows each promise kept and missed, the missed cases in the client's zone, and the 12 months", async () => {
    const { calls } = renderReportingScreen(`/reporting/service-levels?client=${clientId}&month=2026-11`, {
      groups: ["coordinator"],
      routes: { ...pickers, [`GET ${reportPath}`]: () => envelope(testReport()) },
    });
    const kinds = await screen.findByRole("table", { name: "Promises kept and missed" });
    expect(cells(kinds)[1]).toEqual([
      "STAT case taken by a reviewer",
      "3",
      "1",
      "75.0%",
      "0",
      "20 min 00 s",
      "1 h 15 min",
      "1 h 15 min",
      "15 min 00 s",
      "15 min 00 s",
      "15 min 00 s",
    ]);
    expect(cells(kinds)[3]?.slice(0, 6)).toEqual(["Intermittent review check (every 2 h)", "0", "0", "—", "0", "—"]);
    const breaches = screen.getByRole("table", { name: "Missed promises" });
    expect(cells(breaches)[2]).toEqual([
      "CM-2026-000150",
      "Review turnaround",
      "Nov 20, 2026, 13:00:00 EST",
      "Nov 20, 2026, 15:05:00 EST",
      "Done late",
      "2 h 05 min",
    ]);
    expect(cells(screen.getByRole("table", { name: "Kept and missed promises per month" }))).toHaveLength(13);
    expect(screen.getByRole("figure", { name: /as a chart/ })).toBeTruthy();
    expect(cells(screen.getByRole("table", { name: "Kept and missed promises per month" }))[12]?.at(-1)).toBe("2 / 2");
    expect(screen.queryByRole("table", { name: "Promises per person" })).toBeNull();
    expect(calls.some((call) => call.path.endsWith("/people"))).toBe(false);
  });

  it("shows the month's critical findings: how each window ended, the loop's times, and the missed windows by case", async () => {
    renderReportingScreen(`/reporting/service-levels?client=${clientId}&month=2026-11`, {
      groups: ["coordinator"],
      routes: { ...pickers, [`GET ${reportPath}`]: () => envelope(testReport()) },
    });
    const figures = await screen.findByRole("table", { name: "Critical findings" });
    expect(cells(figures)).toEqual([
      [
        "Findings",
        "Acknowledged in time",
        "Acknowledged late",
        "Not acknowledged",
        "Not yet due",
        "Cancelled",
        "To acknowledgement p50",
        "To acknowledgement p90",
        "To acknowledgement max",
        "EEG onset to raised p50",
        "Raised to first message p50",
      ],
      ["5", "2", "1", "1", "0", "1", "1 min 15 s", "50 min 00 s", "50 min 00 s", "18 min 00 s", "—"],
    ]);
    const missed = screen.getByRole("table", { name: "Missed acknowledgement windows" });
    expect(cells(missed).slice(1)).toEqual([
      [
        "CM-2026-000131",
        "Electrographic status epilepticus (ESE)",
        "Nov 6, 2026, 21:10:00 EST",
        "Nov 6, 2026, 21:11:00 EST",
        "Nov 6, 2026, 21:11:14 EST",
        "15 s",
      ],
      [
        "CM-2026-000140",
        "Other urgent finding",
        "Nov 30, 2026, 18:00:00 EST",
        "Nov 30, 2026, 18:30:00 EST",
        "Not acknowledged",
        "1 h 35 min",
      ],
    ]);
    const kinds = screen.getByRole("table", { name: "Promises kept and missed" });
    expect(cells(kinds)[5]?.slice(0, 4)).toEqual(["Critical finding acknowledgement", "2", "2", "50.0%"]);
  });

  it("says so when every finding of the month was acknowledged in time", async () => {
    const report = testReport();
    renderReportingScreen(`/reporting/service-levels?client=${clientId}&month=2026-11`, {
      groups: ["coordinator"],
      routes: {
        ...pickers,
        [`GET ${reportPath}`]: () =>
          envelope({ ...report, criticalFindings: { ...report.criticalFindings, missed: [] } }),
      },
    });
    const missed = await screen.findByRole("table", { name: "Missed acknowledgement windows" });
    expect(within(missed).getByText("Every critical finding due in this month was acknowledged in time.")).toBeTruthy();
  });

  it("shows administrators each person's figures", async () => {
    renderReportingScreen(`/reporting/service-levels?client=${clientId}&month=2026-11`, {
      groups: ["admin"],
      routes: {
        ...pickers,
        [`GET ${reportPath}`]: () => envelope(testReport()),
        [`GET ${reportPath}/people`]: () => envelope(people),
      },
    });
    const table = await screen.findByRole("table", { name: "Promises per person" });
    expect(cells(table)[1]).toEqual(["Rita Reviewer", "Reviewer", "3 / 1", "—", "—", "5 / 1", "8", "2"]);
  });

  it("opens on the current month and the first client when the link names neither", async () => {
    const now = new Date();
    const month = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}`;
    const { calls } = renderReportingScreen("/reporting/service-levels", {
      groups: ["coordinator"],
      routes: {
        ...pickers,
        [`GET /api/reporting/service-levels/${clientId}/${month}`]: () => envelope(testReport({ month })),
      },
    });
    expect(await screen.findByRole("table", { name: "Promises kept and missed" })).toBeTruthy();
    expect((screen.getByLabelText("Month") as HTMLInputElement).value).toBe(month);
    expect(calls.map((call) => call.path)).toContain(`/api/reporting/service-levels/${clientId}/${month}`);
    expect(screen.getByText(/Percentiles are nearest rank/)).toBeTruthy();
  });

  it("goes from loading the clients to loading the first client's month without asking for a client between", async () => {
    const now = new Date();
    const month = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}`;
    // Every text the page ever shows, caught as it is added: a question shown for one render would count.
    const seen: string[] = [];
    const observer = new MutationObserver(() => seen.push(document.body.textContent ?? ""));
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    try {
      renderReportingScreen("/reporting/service-levels", {
        groups: ["coordinator"],
        routes: {
          ...pickers,
          [`GET /api/reporting/service-levels/${clientId}/${month}`]: () => envelope(testReport({ month })),
        },
      });
      expect(await screen.findByRole("table", { name: "Promises kept and missed" })).toBeTruthy();
      expect(seen.some((text) => text.includes("Loading the clients"))).toBe(true);
      expect(seen.some((text) => text.includes("Choose a client to see its month."))).toBe(false);
    } finally {
      observer.disconnect();
    }
  });

  it("asks for a client when there is none to choose, and refuses a month that is not one before asking the server", async () => {
    const { calls } = renderReportingScreen("/reporting/service-levels?month=2026-13", {
      groups: ["coordinator"],
      routes: { "GET /api/continuous-monitoring/clients/ids": () => envelope([]) },
    });
    expect(await screen.findByText("Choose a client to see its month.")).toBeTruthy();
    expect(screen.getByLabelText("Month").getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByText("Must be a month as YYYY-MM, e.g. 2026-11")).toBeTruthy();
    expect(calls.some((call) => call.path.startsWith("/api/reporting"))).toBe(false);
  });

  it("exports the tables as CSV named after the client and month", async () => {
    const user = userEvent.setup({ delay: null });
    const blobs: Blob[] = [];
    const downloads: string[] = [];
    vi.spyOn(URL, "createObjectURL").mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return "blob:export";
    });
    vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push(this.download);
    });
    renderReportingScreen(`/reporting/service-levels?client=${clientId}&month=2026-11`, {
      groups: ["billing"],
      routes: { ...pickers, [`GET ${reportPath}`]: () => envelope(testReport()) },
    });
    await screen.findByRole("table", { name: "Promises kept and missed" });
    await user.click(screen.getByRole("button", { name: "Export CSV" }));
    await waitFor(() => expect(downloads).toEqual(["service-levels-SMRMC-2026-11.csv"]));
    const text = await readBlob(blobs[0] as Blob);
    // The method and the units are stated, and no cell holds a dash or a duration in words.
    expect(text).toContain("# Percentiles are nearest rank:");
    expect(text).toContain("PERCENTILE.INC");
    expect(text).toContain("durations are decimal minutes");
    expect(text).not.toContain("—");
    const rows = parseCsv(text);
    expect(rows[0]).toEqual([
      "Promise",
      "Kept",
      "Missed",
      "Kept share (%)",
      "Not yet due",
      "Time taken p50 (min)",
      "Time taken p90 (min)",
      "Time taken max (min)",
      "Late by p50 (min)",
      "Late by p90 (min)",
      "Late by max (min)",
    ]);
    expect(rows[1]).toEqual([
      "STAT case taken by a reviewer",
      "3",
      "1",
      "75.0",
      "0",
      "20",
      "75",
      "75",
      "15",
      "15",
      "15",
    ]);
    // Nothing decided, nothing measured: empty cells, not dashes.
    expect(rows[3]).toEqual(["Intermittent review check (every 2 h)", "0", "0", "", "0", "", "", "", "", "", ""]);
    expect(rows[4]?.slice(0, 3)).toEqual(["Review turnaround", "5", "1"]);
    expect(rows[5]?.slice(5, 9)).toEqual(["1.25", "50", "50", "0.25"]);
    expect(rows[6]).toEqual(["Case", "Promise", "Due", "Done", "Outcome", "Late by (min)"]);
    expect(rows[7]).toEqual([
      "CM-2026-000123",
      "STAT case taken by a reviewer",
      "2026-11-03 10:00:00",
      "2026-11-03 10:15:00",
      "Done late",
      "15",
    ]);
    // Then the critical findings' figures and their missed windows.
    expect(rows[9]?.[0]).toBe("Findings");
    expect(rows[9]?.slice(6)).toEqual([
      "To acknowledgement p50 (min)",
      "To acknowledgement p90 (min)",
      "To acknowledgement max (min)",
      "EEG onset to raised p50 (min)",
      "Raised to first message p50 (min)",
    ]);
    expect(rows[10]).toEqual(["5", "2", "1", "1", "0", "1", "1.25", "50", "50", "18", ""]);
    expect(rows[11]).toEqual(["Case", "Finding", "Raised", "Due", "Acknowledged", "Late by (min)"]);
    expect(rows[12]?.slice(3)).toEqual(["2026-11-06 21:11:00", "2026-11-06 21:11:14", "0.25"]);
    expect(rows[13]?.slice(0, 2)).toEqual(["CM-2026-000140", "Other urgent finding"]);
    expect(rows[13]?.at(4)).toBe("Not acknowledged");
    expect(rows[13]?.at(5)).toBe("95");
  });
});
